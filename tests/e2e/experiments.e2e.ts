/**
 * Serving a running experiment (docs/decisions/0105): the project's catalogue with its
 * `grocery-headline` experiment switched to running, on a server of its own.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EXPERIMENT_COOKIE_MAX_AGE_MS,
  EXPERIMENT_HTML_CACHE_CONTROL,
  EXPERIMENT_PREVIEW_PARAM,
  PUBLIC_HTML_CACHE_CONTROL,
} from '../../engine/constants'
import type { Experiment } from '../../schemas/generated/experiment'
import { launchBrowser, routeThirdParties } from './browser'
import { httpGet } from './http'
import { PROJECT_ROOT, type ServerProcess, startServerProcess } from './server-process'

const COOKIE = 'fw_exp_grocery-headline'
let server: ServerProcess
let experiment: Experiment
const question = () => experiment.variants.find((v) => v.overrides?.headline)!

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-experiments-'))
  cpSync(join(PROJECT_ROOT, 'definitions'), dir, { recursive: true })
  const file = join(dir, 'experiments', 'grocery-headline.json')
  experiment = { ...JSON.parse(readFileSync(file, 'utf8')), status: 'running' }
  writeFileSync(file, JSON.stringify(experiment, null, 2))
  server = await startServerProcess({ DEFINITIONS_DIR: dir })
})
afterAll(async () => {
  await server?.stop()
})

const get = (headers: Record<string, string> = {}, path = '/grocery') =>
  httpGet(server.port, path, 'm10.localhost', headers)
const headlineOf = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]
const setCookieOf = (r: { headers: Record<string, string | string[] | undefined> }) =>
  ([] as string[]).concat(r.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${COOKIE}=`))

describe('a running experiment', () => {
  it('gives a new visitor a variant, keeps it in a cookie, and renders that variant', async () => {
    const seen = new Set<string>()
    for (let i = 0; i < 30 && seen.size < 2; i++) {
      const r = await get()
      expect(r.status).toBe(200)
      const cookie = setCookieOf(r)
      expect(cookie).toMatch(/; path=\/; expires=[^;]+; samesite=lax; httponly$/i)
      const expires = Date.parse(/expires=([^;]+)/i.exec(cookie!)![1]!)
      expect(Math.round((expires - Date.now()) / 86_400_000)).toBe(EXPERIMENT_COOKIE_MAX_AGE_MS / 86_400_000)
      const variant = cookie!.split(';')[0]!.split('=')[1]!
      seen.add(variant)
      const v = experiment.variants.find((x) => x.id === variant)!
      expect(v).toBeDefined()
      const expected = v.overrides?.headline ?? 'Help with groceries from your Medicare plan'
      expect(headlineOf(r.body)).toBe(expected)
      // Shared caches must not hand one visitor's variant to another.
      expect(r.headers['cache-control']).toBe(EXPERIMENT_HTML_CACHE_CONTROL)
      expect(String(r.headers.vary)).toMatch(/Cookie/)
    }
    // Both variants have a 50 % share: 30 visitors all in one has odds of 2 in a billion.
    expect(seen).toEqual(new Set(experiment.variants.map((v) => v.id)))
  })

  it('a returning visitor sees their variant and gets no new cookie', async () => {
    for (const v of experiment.variants) {
      for (let i = 0; i < 3; i++) {
        const r = await get({ cookie: `${COOKIE}=${v.id}` })
        expect(setCookieOf(r)).toBeUndefined()
        expect(headlineOf(r.body)).toBe(
          v.overrides?.headline ?? 'Help with groceries from your Medicare plan',
        )
      }
    }
  })

  it('a stale cookie (a variant that no longer exists) is replaced', async () => {
    const r = await get({ cookie: `${COOKIE}=removed-variant` })
    expect(setCookieOf(r)).toMatch(
      new RegExp(`^${COOKIE}=(${experiment.variants.map((v) => v.id).join('|')});`),
    )
  })

  it('a preview link shows a variant without assigning it', async () => {
    const r = await get(
      { cookie: `${COOKIE}=control` },
      `/grocery?${EXPERIMENT_PREVIEW_PARAM}=${question().id}`,
    )
    expect(headlineOf(r.body)).toBe(question().overrides!.headline)
    expect(setCookieOf(r)).toBeUndefined()
  })

  it("the client-navigation payload is the visitor's variant, private, and assigns like the page", async () => {
    const html = await get({ cookie: `${COOKIE}=${question().id}` })
    const buildId = JSON.parse(
      /<script id="page-resolution"[^>]*>([^<]*)<\/script>/.exec(html.body)![1]!,
    ).buildId
    const kept = await get({ cookie: `${COOKIE}=${question().id}` }, `/grocery/_payload.json?${buildId}`)
    expect(JSON.parse(kept.body).experiment).toEqual({ id: experiment.id, variant: question().id })
    expect(kept.headers['cache-control']).toBe('private, max-age=3600')
    expect(String(kept.headers.vary)).toMatch(/Cookie/)
    expect(setCookieOf(kept)).toBeUndefined()
    const fresh = await get({}, `/grocery/_payload.json?${buildId}`)
    const given = JSON.parse(fresh.body).experiment.variant
    expect(setCookieOf(fresh)).toMatch(new RegExp(`^${COOKIE}=${given};`))
  })

  it('pages without an experiment stay publicly cacheable and set no cookie', async () => {
    const r = await get({}, '/privacy')
    expect(r.headers['cache-control']).toBe(PUBLIC_HTML_CACHE_CONTROL)
    expect(setCookieOf(r)).toBeUndefined()
  })

  it('hydrates as the variant and names it in the pageview event', async () => {
    const browser = await launchBrowser()
    try {
      const context = await browser.newContext()
      await routeThirdParties(context)
      const url = `http://m10.localhost:${server.port}/grocery`
      await context.addCookies([{ name: COOKIE, value: question().id, url }])
      const page = await context.newPage()
      const errors: string[] = []
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text())
      })
      await page.goto(url)
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
      expect(await page.locator('h1').textContent()).toBe(question().overrides!.headline)
      const pageEvent = await page.waitForFunction(
        () => (window.dataLayer ?? []).find((e) => (e as { event?: string }).event === 'pageView') ?? null,
        undefined,
        { timeout: 10_000 },
      )
      const entry = (await pageEvent.jsonValue()) as { page?: { experiment?: unknown } }
      expect(entry.page?.experiment).toEqual({ id: experiment.id, variant: question().id })
      // The server and the first client render agree: no hydration mismatch.
      expect(errors.filter((e) => /hydrat/i.test(e))).toEqual([])

      // A preview is shown but not counted: its events do not name the experiment.
      const preview = await context.newPage()
      await preview.goto(`${url}?${EXPERIMENT_PREVIEW_PARAM}=control`)
      await preview.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
      expect(await preview.locator('h1').textContent()).toBe('Help with groceries from your Medicare plan')
      const previewEvent = await preview.waitForFunction(
        () => (window.dataLayer ?? []).find((e) => (e as { event?: string }).event === 'pageView') ?? null,
        undefined,
        { timeout: 10_000 },
      )
      const previewEntry = (await previewEvent.jsonValue()) as { page?: { experiment?: unknown } }
      expect(previewEntry.page).toBeDefined()
      expect(previewEntry.page?.experiment).toBeUndefined()
      expect((await context.cookies(url)).find((c) => c.name === COOKIE)?.value).toBe(question().id)
    } finally {
      await browser.close()
    }
  })
})
