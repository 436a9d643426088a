/**
 * Every static page of the catalogue, on one of its brands, in Chromium: the document title, the
 * headline, the hero image actually loaded, no console errors. SCREENSHOTS=1 saves a full-page PNG of
 * each to test-results/screenshots/, to look at. The pages lease phone numbers, so this suite runs
 * its own production server pointed at the ad-marketplace simulator (the third-party stand-in), as a
 * deployed site would be.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
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

describe('every static page on one of its brands', () => {
  it.each(cases.map((c) => [`${c.brandId}${c.path}`, c] as const))(
    '%s',
    async (_, { page, brandId, path }) => {
      const { page: tab, consoleErrors, pageErrors } = await newPage(context)
      const res = await tab.goto(brandUrl(brandId, port, path))
      expect(res?.status()).toBe(200)
      await tab.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')

      const brand = snapshot.brands.get(brandId)!
      const title = page.template === 'article' ? expectedHeadline(page) : page.title
      expect(await tab.title()).toBe(documentTitle(title, siteNameFor(snapshot.site, brand, page)))
      expect((await tab.locator('[data-testid="headline"]').textContent())?.trim()).toBe(
        expectedHeadline(page),
      )
      if (page.image) {
        const img = tab.locator(`main img[src="${page.image.src}"]`).first()
        await expect
          .poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth))
          .toBeGreaterThan(0)
        expect(await img.getAttribute('alt')).toBe(page.image.alt)
      }
      if (page.template === 'review')
        expect(await tab.locator('[data-testid="comparison"] tbody tr').count()).toBe(page.comparison!.length)
      if (page.relatedArticles)
        expect(await tab.locator('.related a').count()).toBe(page.relatedArticles.length)
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
