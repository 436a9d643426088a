import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { LOADING_THROTTLE_MS, TOOLTIP_OPEN_DELAY_MS } from '../../engine/constants'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'

const port = inject('port')
let browser: Browser
let context: BrowserContext

beforeAll(async () => {
  browser = await launchBrowser()
  context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
  await routeThirdParties(context)
})
afterAll(async () => {
  await browser?.close()
})

async function openGuide(): Promise<Page> {
  const { page } = await newPage(context)
  await page.goto(brandUrl('ccc', port, '/_primitives'))
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  return page
}

describe('style guide placement', () => {
  it('is served on the control center only; public brands answer 404', async () => {
    const { page } = await newPage(context)
    expect((await page.goto(brandUrl('m10', port, '/_primitives')))?.status()).toBe(404)
    expect((await page.goto(brandUrl('ccc', port, '/_primitives')))?.status()).toBe(200)
    await page.close()
  })

  it('a public page loads no primitive code', async () => {
    const { page } = await newPage(context)
    const scripts: string[] = []
    page.on('request', (r) => {
      if (r.resourceType() === 'script' || r.url().endsWith('.js')) scripts.push(r.url())
    })
    await page.goto(brandUrl('m10', port, '/'))
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    const html = await page.content()
    expect(html).not.toContain('ui_pages_primitives')
    expect(scripts.some((s) => s.includes('primitives'))).toBe(false)
    expect(await page.evaluate(() => document.querySelectorAll('[role="tooltip"]').length)).toBe(0)
    await page.close()
  })
})

describe('tooltip', () => {
  it('opens on hover after the delay, on top, described by its trigger', async () => {
    const page = await openGuide()
    const trigger = page.getByTestId('tip-a')
    // Measured in the page: from pointer enter to the tooltip appearing is never under the delay.
    const delay = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let t0 = 0
          document.querySelector('[data-testid="tip-a"]')!.addEventListener('pointerenter', () => {
            t0 = performance.now()
          })
          new MutationObserver((_, obs) => {
            if (document.querySelector('[role="tooltip"]')) {
              obs.disconnect()
              resolve(performance.now() - t0)
            }
          }).observe(document.body, { childList: true, subtree: true })
        }),
    )
    await trigger.hover()
    expect(await delay).toBeGreaterThanOrEqual(TOOLTIP_OPEN_DELAY_MS - 1)
    const tip = page.locator('[role="tooltip"]')
    await tip.waitFor({ state: 'visible' })
    expect(await tip.getAttribute('data-state')).toBe('delayed-open')
    expect(await tip.textContent()).toContain('ZIP code')
    expect(await trigger.getAttribute('aria-describedby')).toBe(await tip.getAttribute('id'))
    const t = (await trigger.boundingBox())!
    const b = (await tip.boundingBox())!
    // Default side top, offset 0: the tooltip's bottom edge meets the trigger's top edge.
    expect(Math.abs(b.y + b.height - t.y)).toBeLessThanOrEqual(1)
    // Moving to another trigger within the skip window opens it at once; only one is open.
    await page.getByTestId('tip-b').hover()
    await expect.poll(() => page.locator('[role="tooltip"]').textContent()).toContain('phone number')
    expect(await page.locator('[role="tooltip"]').count()).toBe(1)
    expect(await page.locator('[role="tooltip"]').getAttribute('data-state')).toBe('instant-open')
    await page.mouse.move(1000, 800)
    await page.locator('[role="tooltip"]').waitFor({ state: 'detached' })
    await page.close()
  })

  it('opens instantly on keyboard focus and Escape closes it', async () => {
    const page = await openGuide()
    await page.getByTestId('tip-a').focus()
    // Programmatic focus after a keypress counts as keyboard focus (:focus-visible).
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Tab')
    const tip = page.locator('[role="tooltip"]')
    await tip.waitFor({ state: 'visible' })
    expect(await tip.getAttribute('data-state')).toBe('instant-open')
    await page.keyboard.press('Escape')
    await tip.waitFor({ state: 'detached' })
    // Tab to the next trigger: it opens at once, and blur closed the first.
    await page.keyboard.press('Tab')
    await expect.poll(() => page.locator('[role="tooltip"]').textContent()).toContain('phone number')
    await page.close()
  })

  it('a click on the trigger closes it', async () => {
    const page = await openGuide()
    await page.getByTestId('tip-c').hover()
    await page.locator('[role="tooltip"]').waitFor({ state: 'visible' })
    await page.getByTestId('tip-c').click()
    await page.locator('[role="tooltip"]').waitFor({ state: 'detached' })
    await page.close()
  })
})

describe('hover card, select, switch, toggle', () => {
  it('the hover card opens after resting on the link', async () => {
    const page = await openGuide()
    await page.getByTestId('hover-trigger').hover()
    const card = page.locator('.hover-card')
    await card.waitFor({ state: 'visible', timeout: 3_000 })
    expect(await card.getAttribute('role')).toBe('dialog')
    // Its text starts and ends at the card's padding: no empty band above or below.
    const bands = await card.evaluate((el) => {
      const box = el.getBoundingClientRect()
      const pad = Number.parseFloat(getComputedStyle(el).paddingTop) + el.clientTop
      const first = el.firstElementChild!.getBoundingClientRect()
      const last = el.lastElementChild!.getBoundingClientRect()
      return {
        top: Math.round(first.top - box.top - pad),
        bottom: Math.round(box.bottom - last.bottom - pad),
      }
    })
    expect(bands).toEqual({ top: 0, bottom: 0 })
    await page.keyboard.press('Escape')
    await card.waitFor({ state: 'detached' })
    await page.close()
  })

  it('select, switch and toggle work from the keyboard and post natively', async () => {
    const page = await openGuide()
    const trigger = page.locator('.select-trigger')
    await trigger.focus()
    await page.keyboard.press('Enter')
    const list = page.getByRole('listbox')
    await list.waitFor({ state: 'visible' })
    // The list stays at least 10 px inside the viewport.
    const box = (await list.boundingBox())!
    const vh = page.viewportSize()!.height
    expect(box.y + box.height).toBeLessThanOrEqual(vh - 10 + 0.5)
    // Opening from the keyboard makes the first option active; one step down is Florida.
    await expect.poll(() => page.locator('.select-option[data-active]').textContent()).toBe('California')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await list.waitFor({ state: 'detached' })
    expect(await trigger.textContent()).toContain('Florida')

    const toggle = page.getByTestId('toggle')
    expect(await toggle.getAttribute('aria-pressed')).toBe('false')
    await toggle.click()
    expect(await toggle.getAttribute('aria-pressed')).toBe('true')
    expect(await toggle.getAttribute('data-state')).toBe('on')

    const sw = page.getByRole('switch', { name: 'Text me plan updates' })
    expect(await sw.isChecked()).toBe(false)
    await sw.focus()
    await page.keyboard.press('Space')
    expect(await sw.isChecked()).toBe(true)
    expect(await sw.getAttribute('data-state')).toBe('checked')
    await Promise.all([page.waitForURL(/submitted=1/), page.getByRole('button', { name: 'Submit' }).click()])
    const url = new URL(page.url())
    expect(url.searchParams.get('notify')).toBe('on')
    expect(url.searchParams.get('state')).toBe('FL')
    await page.close()
  })

  it('an unchecked switch posts nothing', async () => {
    const page = await openGuide()
    await Promise.all([page.waitForURL(/submitted=1/), page.getByRole('button', { name: 'Submit' }).click()])
    expect(new URL(page.url()).searchParams.has('notify')).toBe(false)
    await page.close()
  })
})

describe('splitter', () => {
  it('keyboard steps 10 %, Shift collapses, and the layout is saved', async () => {
    const page = await openGuide()
    await page.evaluate(() => localStorage.removeItem('primitives-splitter'))
    const handle = page.getByRole('separator', { name: 'Resize navigation' })
    const nav = page.locator('[data-panel][id="nav"]')
    const width = async () => (await nav.boundingBox())!.width
    const total = (await page.locator('.splitter').boundingBox())!.width
    await handle.focus()
    const before = await width()
    await page.keyboard.press('ArrowRight')
    await expect.poll(async () => Math.round((((await width()) - before) / total) * 100)).toBe(10)
    await page.keyboard.press('Shift+ArrowLeft')
    await expect.poll(width).toBeLessThan(2)
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('primitives-splitter')))
      .toBe(JSON.stringify([0, 100]))
    await page.close()
  })
})

describe('progress', () => {
  it('animates over 300 ms after 10 ms, and not at all with reduced motion', async () => {
    const page = await openGuide()
    const indicator = page.locator('.progress-indicator')
    const timing = () =>
      indicator.evaluate((el) => {
        const s = getComputedStyle(el)
        return `${s.transitionDuration} ${s.transitionDelay}`
      })
    expect(await timing()).toBe('0.3s 0.01s')
    await page.emulateMedia({ reducedMotion: 'reduce' })
    expect((await timing()).startsWith('0s')).toBe(true)
    await page.close()
  })
})

describe('loading indicator', () => {
  it('appears only after the throttle, 3 px high in #d33636, and goes away when done', async () => {
    const page = await openGuide()
    const bar = page.locator('.loading-bar')
    // Measured in the page: from the click to the bar showing can never be shorter than the throttle.
    const shownAfter = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const el = document.querySelector('.loading-bar')!
          let t0 = 0
          new MutationObserver(() => {
            if (el.getAttribute('aria-hidden') === 'false') resolve(performance.now() - t0)
          }).observe(el, { attributes: true })
          const button = [...document.querySelectorAll('button')].find(
            (b) => b.textContent === 'Simulate a slow navigation',
          )!
          t0 = performance.now()
          button.click()
        }),
    )
    expect(shownAfter).toBeGreaterThanOrEqual(LOADING_THROTTLE_MS - 1)
    const style = await bar.evaluate((el) => {
      const s = getComputedStyle(el)
      return { height: s.height, background: s.backgroundColor }
    })
    expect(style).toEqual({ height: '3px', background: 'rgb(211, 54, 54)' })
    await expect.poll(() => bar.getAttribute('aria-hidden'), { timeout: 3_000 }).toBe('true')
    await page.close()
  })
})

describe('client errors', () => {
  it('an unhandled render error shows the server-error variant and is reported', async () => {
    const page = await openGuide()
    const report = page.waitForRequest((r) => r.url().endsWith('/api/client-errors') && r.method() === 'POST')
    await page.getByTestId('crash').click()
    await page.locator('[data-variant="server-error"]').waitFor()
    expect(await page.locator('.error-description').textContent()).toBe('Style guide crash on purpose')
    const body = JSON.parse((await report).postData() ?? '{}')
    expect(body).toMatchObject({
      kind: 'render',
      message: 'Error: Style guide crash on purpose',
      url: '/_primitives',
    })
    // The shell around the page still works.
    expect(await page.locator('.site-header').isVisible()).toBe(true)
    await page.close()
  })
})
