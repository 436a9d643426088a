import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { BUILD_LATEST_PATH, RELOAD_GUARD_MS } from '../../engine/constants'
import { brandUrl, launchBrowser, routeThirdParties } from './browser'

const port = inject('port')
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

/**
 * A deploy, as the browser sees it: latest.json names a newer build, and the old build's chunks are
 * gone from the server. Only these two network answers are staged (docs/decisions/0502); the page,
 * its build check and the server are the real ones.
 */
async function simulateDeploy(context: BrowserContext) {
  const current = (await (await fetch(`http://127.0.0.1:${port}${BUILD_LATEST_PATH}`)).json()) as {
    id: string
  }
  const next = `${current.id.slice(0, -1)}${current.id.endsWith('0') ? '1' : '0'}`
  await context.route(/\/builds\/latest\.json/, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ id: next, timestamp: Date.now() }),
    }),
  )
  await context.route(/\/builds\/meta\//, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ id: next, timestamp: Date.now(), matcher: { routes: [] }, prerendered: [] }),
    }),
  )
}

const ready = (page: Page) =>
  page.waitForFunction(
    () =>
      document.documentElement.dataset.hydrated === 'true' &&
      document.documentElement.dataset.buildCheck === 'running',
  )

/** The old build's chunks are gone (404) while the page asks for one it has not loaded yet. */
async function failChunkThenNavigate(context: BrowserContext, page: Page) {
  const gone = /\/assets\/chunks\//
  await context.route(gone, (route) => route.fulfill({ status: 404, body: 'gone' }))
  const checked = page.waitForResponse((r) => r.url().includes('/builds/meta/'))
  await page.getByTestId('load-chunk').click()
  // The failed chunk makes the check ask latest.json at once; wait until it has.
  await checked
  await context.unroute(gone)
  await page.getByTestId('next-step').click()
}

describe('build check', () => {
  it('latest.json is polled with a timestamp and names the build the page was rendered with', async () => {
    const context = await browser.newContext()
    await routeThirdParties(context)
    const page = await context.newPage()
    await page.goto(brandUrl('ccc', port, '/_primitives'))
    const buildId = await page.evaluate(
      () => JSON.parse(document.getElementById('page-resolution')!.textContent!).buildId,
    )
    await ready(page)
    const poll = page.waitForRequest((r) => /\/builds\/latest\.json\?t=\d+$/.test(r.url()))
    // Tab focus triggers a check.
    await page.evaluate(() => window.dispatchEvent(new Event('focus')))
    const answer = await (await (await poll).response())!.json()
    expect(answer.id).toBe(buildId)
    await context.close()
  })

  it('after a new build, a chunk failure reloads on the next navigation once, and not again within the guard', async () => {
    const context = await browser.newContext()
    await routeThirdParties(context)
    await simulateDeploy(context)
    const page = await context.newPage()
    const documents: string[] = []
    page.on('request', (r) => {
      if (r.resourceType() === 'document') documents.push(r.url())
    })
    await page.goto(brandUrl('ccc', port, '/_primitives'))
    await ready(page)
    await failChunkThenNavigate(context, page)
    // The navigation became a full load of the step's URL.
    await page.waitForURL(/_primitives\?step=2$/)
    await ready(page)
    expect(documents).toEqual([
      brandUrl('ccc', port, '/_primitives'),
      brandUrl('ccc', port, '/_primitives?step=2'),
    ])
    const reloadedAt = Date.now()

    // The fresh page hits the same failure: within the guard it navigates in place, no reload.
    await page.evaluate(() => {
      ;(window as unknown as { __samePage: boolean }).__samePage = true
    })
    await failChunkThenNavigate(context, page)
    await page.waitForURL(/_primitives\?step=2$/)
    await page.waitForTimeout(500)
    expect(Date.now() - reloadedAt).toBeLessThan(RELOAD_GUARD_MS)
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true)
    expect(documents).toHaveLength(2)
    await context.close()
  })

  it('the page payload for client navigation is the page resolution, keyed by build', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(brandUrl('m10', port, '/privacy'), { waitUntil: 'domcontentloaded' })
    const buildId = await page.evaluate(
      () => JSON.parse(document.getElementById('page-resolution')!.textContent!).buildId,
    )
    const get = (path: string) =>
      page.evaluate(async (p) => {
        const r = await fetch(p)
        return { status: r.status, cacheControl: r.headers.get('cache-control'), body: await r.json() }
      }, path)
    const res = await get(`/privacy/_payload.json?${buildId}`)
    expect(res.status).toBe(200)
    expect(res.cacheControl).toContain('max-age')
    expect(res.body).toMatchObject({
      view: 'content',
      pathname: '/privacy',
      buildId,
      page: { template: 'legal' },
    })
    const stale = await get('/privacy/_payload.json?oldbuild')
    expect(stale.cacheControl).toBe('no-cache')
    const missing = await get('/no-such/_payload.json')
    expect(missing.status).toBe(404)
    await context.close()
  })
})
