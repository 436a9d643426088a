/**
 * The performance budget (docs/decisions/0505): JavaScript and CSS a landing page and a funnel step
 * page load, in gzip bytes, including React and the idle-time runtime.
 */
import { join } from 'node:path'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { SnapshotStore } from '../../server/content/snapshot-store'
import { kb, measurePage, SIZE_BUDGETS } from '../../tools/size-budget'
import { brandUrl, launchBrowser, routeThirdParties } from './browser'
import { PROJECT_ROOT } from './server-process'

const port = inject('port')
let browser: Browser
let context: BrowserContext

/** First page with one of the templates, as a concrete URL (funnel: its first step). */
export function pageUrl(templates: string[], port: number): string | null {
  const snapshot = SnapshotStore.load(join(PROJECT_ROOT, 'definitions'), PROJECT_ROOT).current
  for (const template of templates)
    for (const [brandId, routes] of snapshot.routes)
      for (const route of routes) {
        const page = snapshot.pages.get(route.pageKey)
        if (page?.template !== template) continue
        const first = page.form ? snapshot.funnels.get(page.form)?.steps[0]?.name : undefined
        const path =
          route.pattern.source.replace(/\{[^}]*step[^}]*\}/, first ?? '').replace(/\/+$/, '') || '/'
        if (path.includes('{') || path.includes('*')) continue
        return brandUrl(brandId, port, path)
      }
  return null
}

beforeAll(async () => {
  browser = await launchBrowser()
  context = await browser.newContext()
  await routeThirdParties(context)
})
afterAll(async () => {
  await browser?.close()
})

describe('size budget', () => {
  const landing = pageUrl(['landing', 'home'], port)
  const funnel = pageUrl(['funnel'], port)

  it(`a landing page loads at most ${kb(SIZE_BUDGETS.landingJs)} of JS and ${kb(SIZE_BUDGETS.css)} of CSS (gzip)`, async () => {
    expect(landing).not.toBeNull()
    const sizes = await measurePage(context, landing!)
    expect(sizes.jsGzip, JSON.stringify(sizes.assets, null, 1)).toBeLessThanOrEqual(SIZE_BUDGETS.landingJs)
    expect(sizes.cssGzip).toBeLessThanOrEqual(SIZE_BUDGETS.css)
    // No control-center or style-guide code on a public page.
    expect(sizes.assets.some((a) => /primitives|control-center/.test(a.url))).toBe(false)
  })

  it.skipIf(funnel === null)(
    `a funnel step page loads at most ${kb(SIZE_BUDGETS.funnelJs)} of JS (gzip)`,
    async () => {
      const sizes = await measurePage(context, funnel!)
      expect(sizes.jsGzip, JSON.stringify(sizes.assets, null, 1)).toBeLessThanOrEqual(SIZE_BUDGETS.funnelJs)
      expect(sizes.cssGzip).toBeLessThanOrEqual(SIZE_BUDGETS.css)
      expect(sizes.assets.some((a) => /primitives|control-center/.test(a.url))).toBe(false)
    },
  )
})
