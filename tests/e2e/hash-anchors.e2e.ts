/**
 * Spec point 2: a hash anchor lands with the header offset. On any page, not only the style guide: a URL
 * with #faq, and an in-page jump to a section, put the target just under the sticky header.
 */
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { SCROLL_HASH_OFFSET_PX } from '../../engine/constants'
import { brandUrl, launchBrowser, routeThirdParties } from './browser'

const port = inject('port')
let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

describe('hash anchors', () => {
  it.each([
    [375, 812],
    [1280, 800],
  ])('land %s px wide just under the header, on load and on an in-page jump', async (width, height) => {
    const ctx = await browser.newContext({ viewport: { width, height } })
    await routeThirdParties(ctx)
    const tab = await ctx.newPage()
    const topOf = (sel: string) =>
      tab.locator(sel).evaluate((el) => Math.round(el.getBoundingClientRect().top))
    await tab.goto(brandUrl('m10', port, '/grocery#faq'))
    await expect.poll(() => topOf('#faq')).toBe(SCROLL_HASH_OFFSET_PX)
    // The header does not cover the target.
    const headerBottom = await tab
      .locator('header')
      .first()
      .evaluate((el) => el.getBoundingClientRect().bottom)
    expect(headerBottom).toBeLessThanOrEqual(SCROLL_HASH_OFFSET_PX)
    const section = await tab.locator('.content-section[id]').first().getAttribute('id')
    expect(section).toMatch(/^[a-z0-9-]+$/)
    await tab.evaluate((id) => {
      location.hash = `#${id}`
    }, section)
    await expect.poll(() => topOf(`#${section}`)).toBe(SCROLL_HASH_OFFSET_PX)
    await ctx.close()
  })
})
