import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { COLOR_MODE_STORAGE_KEY } from '../../engine/constants'
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
 * Records the colour mode the moment <body> is inserted, before the browser can paint anything:
 * if it is right then, there is no flash.
 */
const RECORD_FIRST_PAINT_MODE = `
  new MutationObserver((_, obs) => {
    if (document.body) {
      window.__modeAtBody = document.documentElement.dataset.colorMode ?? 'unset'
      obs.disconnect()
    }
  }).observe(document, { childList: true, subtree: true })
`

async function contextWith(scheme: 'light' | 'dark') {
  const context = await browser.newContext({ colorScheme: scheme })
  await routeThirdParties(context)
  await context.addInitScript(RECORD_FIRST_PAINT_MODE)
  return context
}

const bodyBackground = (page: import('playwright-core').Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor)

describe('colour mode', () => {
  it('a new visitor follows the OS scheme (system), set before first paint', async () => {
    const context = await contextWith('dark')
    const page = await context.newPage()
    await page.goto(brandUrl('m10', port, '/'))
    expect(await page.evaluate(() => (window as unknown as { __modeAtBody: string }).__modeAtBody)).toBe(
      'dark',
    )
    expect(await page.evaluate(() => document.documentElement.dataset.colorPreference)).toBe('system')
    expect(await bodyBackground(page)).not.toBe('rgb(255, 255, 255)')
    await context.close()
  })

  it('a light OS gets the white body with dark text', async () => {
    const context = await contextWith('light')
    const page = await context.newPage()
    await page.goto(brandUrl('m10', port, '/'))
    expect(await bodyBackground(page)).toBe('rgb(255, 255, 255)')
    await context.close()
  })

  it('the choice persists across reload without a flash', async () => {
    const context = await contextWith('light')
    const page = await context.newPage()
    await page.goto(brandUrl('bh', port, '/'))
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await page.getByTestId('color-mode-select').selectOption('dark')
    expect(await page.evaluate(() => document.documentElement.dataset.colorMode)).toBe('dark')
    expect(await page.evaluate((k) => localStorage.getItem(k), COLOR_MODE_STORAGE_KEY)).toBe('dark')
    await page.reload()
    expect(await page.evaluate(() => (window as unknown as { __modeAtBody: string }).__modeAtBody)).toBe(
      'dark',
    )
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    expect(await page.getByTestId('color-mode-select').inputValue()).toBe('dark')
    // Back to system: follows the (light) OS again, also live when the OS changes.
    await page.getByTestId('color-mode-select').selectOption('system')
    expect(await page.evaluate(() => document.documentElement.dataset.colorMode)).toBe('light')
    await page.emulateMedia({ colorScheme: 'dark' })
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.colorMode)).toBe('dark')
    await context.close()
  })

  it('a choice made in another tab applies here too', async () => {
    const context = await contextWith('light')
    const a = await context.newPage()
    const b = await context.newPage()
    await a.goto(brandUrl('gs', port, '/'))
    await b.goto(brandUrl('gs', port, '/privacy'))
    await a.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await b.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await a.getByTestId('color-mode-select').selectOption('dark')
    await expect.poll(() => b.evaluate(() => document.documentElement.dataset.colorMode)).toBe('dark')
    await context.close()
  })
})
