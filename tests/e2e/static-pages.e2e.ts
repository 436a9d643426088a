/**
 * Every static page of the catalogue, on one of its brands: over HTTP (what the server renders) the
 * document title, the headline, the hero image with its alt text and the image itself served, the
 * review's comparison rows and the related articles; in Chromium, one page of each kind (template,
 * brand and which optional parts it has: those decide what the client runs) hydrates with no console
 * or page error and its hero image actually decodes. SCREENSHOTS=1 walks every page in the browser
 * and saves a full-page PNG of each to test-results/screenshots/, to look at. The pages lease phone
 * numbers, so this suite runs its own production server pointed at the ad-marketplace simulator (the
 * third-party stand-in), as a deployed site would be.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { Window } from 'happy-dom'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { documentTitle, siteNameFor } from '../../engine/render/site-name'
import { buildPath, compileRoutePattern } from '../../engine/routing/route-pattern'
import { formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import type { PageEntry } from '../../engine/snapshot/types'
import { SnapshotStore } from '../../server/content/snapshot-store'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../fixtures/marketplace-simulator/simulator'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'
import { httpGet } from './http'
import { type ServerProcess, startServerProcess } from './server-process'

let port = 0
const root = join(import.meta.dirname, '..', '..')
const shots = process.env.SCREENSHOTS ? join(root, 'test-results', 'screenshots') : null
if (shots) mkdirSync(shots, { recursive: true })

const built = SnapshotStore.build(join(root, 'definitions'), root)
if (!built.ok) throw new Error(built.errors.map(formatDefinitionError).join('\n'))
const snapshot = built.snapshot

/** A static page is every page that is not a funnel; the article catch-all is visited with a real slug. */
const cases = [...snapshot.pages.values()]
  .filter((p) => p.template !== 'funnel')
  .map((page) => {
    const brandId = page.brands[0]
    const path =
      page.template === 'article'
        ? buildPath(compileRoutePattern(page.path), { slug: 'aetna/medicare-advantage-what-to-check' })
        : page.path
    return { page, brandId, path }
  })

/** Keys of a page entry that hold only texts (read on every page over HTTP) or where it lives. */
const TEXT_ONLY = new Set([
  '$schema',
  'file',
  'key',
  'path',
  'brands',
  'template',
  'indexable',
  'product',
  'carrier',
])
for (const k of ['title', 'headline', 'subheadline', 'description', 'sections', 'benefits', 'faq', 'legal'])
  TEXT_ONLY.add(k)
const defined = (o: object) =>
  Object.entries(o)
    .filter(([, v]) => v !== undefined && v !== false)
    .map(([k]) => k)
    .sort()
/**
 * What decides what a static page runs in the browser: its template, its brand (theme, phone rules,
 * the lease) and which optional parts it has (a phone in the call to action, a colour mode, a
 * language, on-enter actions, a comparison…). Pages of one kind differ only in their texts, which
 * the HTTP checks read on every page.
 */
const kindOf = ({ page, brandId }: (typeof cases)[number]) => {
  const entry = page as unknown as Record<string, unknown>
  const parts = defined(entry)
    .filter((k) => !TEXT_ONLY.has(k))
    .map((k) =>
      k === 'cta'
        ? `cta(${defined(entry.cta as object)})`
        : k === 'language' || k === 'colorMode'
          ? `${k}=${entry[k]}`
          : k,
    )
  return [page.template, brandId, ...parts].join(' ')
}
const browserCases = shots
  ? cases
  : cases.filter((c, i) => cases.findIndex((d) => kindOf(d) === kindOf(c)) === i)

let browser: Browser
let context: BrowserContext
let sim: MarketplaceSimulator
let server: ServerProcess
beforeAll(async () => {
  sim = await startMarketplaceSimulator()
  server = await startServerProcess({ MEDIAALPHA_BASE_URL: sim.url, MEDIAALPHA_RATE_LIMIT: '10000' })
  port = server.port
  browser = await launchBrowser()
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  await routeThirdParties(context)
})
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await sim?.close()
})

function expectedHeadline(page: PageEntry): string {
  if (page.template === 'article') return 'Aetna Medicare Advantage: Five Things to Check Before You Enroll'
  return page.headline ?? page.title ?? ''
}

const parser = new new Window().DOMParser()
const text = (el: { textContent: string | null } | null | undefined) => el?.textContent?.trim()

describe('every static page on one of its brands, as the server renders it', () => {
  it.each(cases.map((c) => [`${c.brandId}${c.path}`, c] as const))(
    '%s',
    async (_, { page, brandId, path }) => {
      const host = `${brandId}.localhost:${port}`
      const res = await httpGet(port, path, host)
      expect(res.status).toBe(200)
      const doc = parser.parseFromString(res.body, 'text/html')
      const brand = snapshot.brands.get(brandId)!
      const title = page.template === 'article' ? expectedHeadline(page) : page.title
      expect(text(doc.querySelector('title'))).toBe(
        documentTitle(title, siteNameFor(snapshot.site, brand, page)),
      )
      expect(text(doc.querySelector('[data-testid="headline"]'))).toBe(expectedHeadline(page))
      if (page.image) {
        const img = [...doc.querySelectorAll('main img')].find(
          (el) => el.getAttribute('src') === page.image!.src,
        )
        expect(img, page.image.src).toBeDefined()
        expect(img!.getAttribute('alt')).toBe(page.image.alt)
        const file = await httpGet(port, page.image.src, host)
        expect(file.status, page.image.src).toBe(200)
        expect(String(file.headers['content-type'])).toMatch(/^image\//)
        expect(file.raw.length).toBeGreaterThan(0)
      }
      if (page.template === 'review')
        expect(doc.querySelectorAll('[data-testid="comparison"] tbody tr').length).toBe(
          page.comparison!.length,
        )
      if (page.relatedArticles)
        expect(doc.querySelectorAll('.related a').length).toBe(page.relatedArticles.length)
    },
  )
})

describe('one static page of each kind in the browser', () => {
  it.each(browserCases.map((c) => [`${c.brandId}${c.path} (${kindOf(c)})`, c] as const))(
    '%s',
    async (_, { page, brandId, path }) => {
      const { page: tab, consoleErrors, pageErrors } = await newPage(context)
      const res = await tab.goto(brandUrl(brandId, port, path))
      expect(res?.status()).toBe(200)
      await tab.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
      // Hydrated without replacing what the server rendered.
      expect((await tab.locator('[data-testid="headline"]').textContent())?.trim()).toBe(
        expectedHeadline(page),
      )
      if (page.image) {
        const img = tab.locator(`main img[src="${page.image.src}"]`).first()
        await expect
          .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
          .toBeGreaterThan(0)
      }
      if (shots)
        await tab.screenshot({
          path: join(shots, `${brandId}${path.replaceAll('/', '_') || '_'}.png`),
          fullPage: true,
        })
      expect(consoleErrors).toEqual([])
      expect(pageErrors).toEqual([])
      await tab.close()
    },
  )
})

describe('client errors on a static page', () => {
  it('an error in the first moments, before the runtime starts at idle, is still reported', async () => {
    const { brandId, path } = cases.find((c) => c.page.template === 'landing') ?? cases[0]
    const tab = await context.newPage()
    // A page that never gets idle: the runtime would only start after its timeout.
    await tab.addInitScript(() => {
      window.requestIdleCallback = () => 0
    })
    const report = tab.waitForRequest((r) => r.url().endsWith('/api/client-errors') && r.method() === 'POST')
    await tab.goto(brandUrl(brandId, port, path), { waitUntil: 'load' })
    expect(await tab.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined()
    await tab.evaluate(() => {
      setTimeout(() => {
        throw new Error('broken before idle')
      })
    })
    const sent = JSON.parse((await report).postData() ?? '{}')
    expect(sent).toMatchObject({ kind: 'error', message: expect.stringContaining('broken before idle') })
    expect(sent.url).toBe(path)
    await tab.close()
  })
})
