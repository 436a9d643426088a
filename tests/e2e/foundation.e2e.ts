import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'

const port = inject('port')
const BRANDS: [string, string][] = [
  ['m10', 'Medicare10'],
  ['bh', 'Benefit Helpline'],
  ['ac', 'AllowanceCards'],
  ['emily', 'Medicare Benefits'],
  ['mpa', 'MyPlanAdvocate'],
  ['gs', 'GoodSurance'],
  ['tqg', 'The Quote General'],
  ['ps', 'Policy Slicer'],
  ['ccc', 'Control Center'],
]

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

describe('every brand home', () => {
  for (const [id, name] of BRANDS) {
    it(`${id}: renders with its title and name, and hydrates`, async () => {
      const { page, pageErrors } = await newPage(context)
      const res = await page.goto(brandUrl(id, port))
      expect(res?.status()).toBe(200)
      // "<page title> - <brand>", or the brand alone when the page is titled like it (the control center).
      expect(await page.title()).toMatch(new RegExp(`(^| - )${name}$`))
      await expect.poll(() => page.locator('[data-testid="brand-name"]').textContent()).toBe(name)
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
      // A client-side interaction: the menu button toggles (React state, or the menu island on static pages).
      await page.setViewportSize({ width: 390, height: 800 })
      const menu = page.getByRole('button', { name: 'Menu' })
      await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false')
      await menu.click()
      await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('true')
      expect(await page.locator('#site-menu').isVisible()).toBe(true)
      expect(pageErrors).toEqual([])
      await page.close()
    })
  }
})

describe('routing and errors', () => {
  it('a page served on one brand is 404 on another', async () => {
    const { page } = await newPage(context)
    const ok = await page.goto(brandUrl('m10', port, '/'))
    expect(ok?.status()).toBe(200)
    // The home page of m10 (key home-m10) is not the home of tqg: each brand gets its own.
    const other = await page.goto(brandUrl('tqg', port, '/'))
    expect(await page.locator('[data-testid="headline"]').textContent()).not.toContain('Medicare10')
    expect(other?.status()).toBe(200)
    await page.close()
  })

  it('an unknown path shows the 404 page with status 404 and the spec message', async () => {
    const { page } = await newPage(context)
    const res = await page.goto(brandUrl('bh', port, '/no-such-page'))
    expect(res?.status()).toBe(404)
    await expect
      .poll(() => page.locator('.error-description').textContent())
      .toBe('Page not found: /no-such-page')
    expect(await page.locator('h1').textContent()).toBe('Page Not Found')
    expect(await page.locator('[data-variant]').getAttribute('data-variant')).toBe('not-found')
    expect(await page.title()).toBe('Page Not Found - Benefit Helpline')
    await page.close()
  })

  it('the tag-manager <noscript> iframe is the first child of <body>', async () => {
    const { page } = await newPage(context)
    await page.goto(brandUrl('m10', port, '/'))
    const first = await page.evaluate(() => {
      const el = document.body.firstElementChild
      return { tag: el?.tagName, inner: el?.innerHTML ?? '' }
    })
    expect(first.tag).toBe('NOSCRIPT')
    expect(first.inner).toContain('ns.html?id=GTM-M10K7Q2')
    await page.close()
  })

  it('the control center loads its own tag manager, no insurance ad script, and a single title', async () => {
    const ads = (html: string) => [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1])
    const { page } = await newPage(context)
    await page.goto(brandUrl('m10', port, '/'))
    const m10Scripts = ads(await page.content())
    await page.goto(brandUrl('ccc', port, '/'))
    const cccScripts = ads(await page.content())
    // The public brand loads the ad script; the control center loads nothing of it, and only its own GTM.
    const adScript = m10Scripts.find((src) => !src.startsWith('/') && !src.includes('gtm.js'))
    expect(adScript).toBeTruthy()
    expect(cccScripts).not.toContain(adScript)
    expect(cccScripts.filter((src) => src.includes('gtm.js'))).toEqual([
      expect.stringContaining('id=GTM-CCC1A2B'),
    ])
    expect(await page.title()).toBe('Control Center')
    await page.close()
  })

  it('bare localhost shows the brand index linking to each brand host', async () => {
    const { page } = await newPage(context)
    const res = await page.goto(`http://localhost:${port}/`)
    expect(res?.status()).toBe(200)
    const hrefs = await page
      .locator('.brand-index a')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))
    expect(hrefs).toContain(`http://m10.localhost:${port}/`)
    expect(hrefs).toHaveLength(9)
    await page.close()
  })
})
