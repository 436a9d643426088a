/**
 * The performance budget (docs/decisions/0505): JavaScript and CSS a landing page and a funnel step
 * page load, in gzip bytes, including React and the idle-time runtime.
 */
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { kb, measurePage, pageUrlFor, SIZE_BUDGETS, SIZE_CEILINGS } from '../../tools/size-budget'
import { launchBrowser, routeThirdParties } from './browser'
import { PROJECT_ROOT } from './server-process'

const port = inject('port')
let browser: Browser
let context: BrowserContext

beforeAll(async () => {
  browser = await launchBrowser()
  context = await browser.newContext()
  await routeThirdParties(context)
})
afterAll(async () => {
  await browser?.close()
})

describe('size budget', () => {
  const landing = pageUrlFor(['landing', 'home'], `http://{brand}.localhost:${port}`, PROJECT_ROOT)
  const funnel = pageUrlFor(['funnel'], `http://{brand}.localhost:${port}`, PROJECT_ROOT)

  it(`a landing page loads at most ${kb(SIZE_CEILINGS.landingJs)} of JS (target ${kb(SIZE_BUDGETS.landingJs)}) and ${kb(SIZE_BUDGETS.css)} of CSS (gzip)`, async () => {
    expect(landing).not.toBeNull()
    const sizes = await measurePage(context, landing!)
    expect(sizes.jsGzip, JSON.stringify(sizes.assets, null, 1)).toBeLessThanOrEqual(SIZE_CEILINGS.landingJs)
    expect(sizes.cssGzip).toBeLessThanOrEqual(SIZE_BUDGETS.css)
    // No control-center or style-guide code on a public page.
    expect(sizes.assets.some((a) => /primitives|control-center/.test(a.url))).toBe(false)
  })

  it.skipIf(funnel === null)(
    `a funnel step page loads at most ${kb(SIZE_CEILINGS.funnelJs)} of JS (target ${kb(SIZE_BUDGETS.funnelJs)}, gzip)`,
    async () => {
      const sizes = await measurePage(context, funnel!)
      expect(sizes.jsGzip, JSON.stringify(sizes.assets, null, 1)).toBeLessThanOrEqual(SIZE_CEILINGS.funnelJs)
      expect(sizes.cssGzip).toBeLessThanOrEqual(SIZE_BUDGETS.css)
      expect(sizes.assets.some((a) => /primitives|control-center/.test(a.url))).toBe(false)
    },
  )
})
