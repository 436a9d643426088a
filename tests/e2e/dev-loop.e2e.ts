/**
 * The marketer's edit loop in `npm run dev`: a definition saved by rename (as `sed -i`, vim and
 * `git checkout` do) reloads the page every time, a broken file shows the error overlay in the browser
 * (on the open page and on a page loaded afterwards), and fixing it clears the overlay.
 * A development server of its own, on a copy of the definitions.
 */
import { cpSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OVERLAY_PLUGIN } from '../../server/render/dev-overlay'
import { brandUrl, launchBrowser, routeThirdParties } from './browser'
import { PROJECT_ROOT, type ServerProcess, startServerProcess } from './server-process'

let server: ServerProcess
let browser: Browser
let dir: string
const file = () => join(dir, 'pages', 'grocery.json')

/** Writes the file as `sed -i` does: a new file renamed over the old one (a new inode). */
function saveByRename(edit: (text: string) => string) {
  const text = edit(readFileSync(file(), 'utf8'))
  const tmp = `${file()}.sed${Math.random().toString(36).slice(2)}`
  writeFileSync(tmp, text)
  renameSync(tmp, file())
}

const setHeadline = (from: string, to: string, comma = ',') =>
  saveByRename((t) => {
    const next = t.replace(
      `"headline": ${JSON.stringify(from)},`,
      `"headline": ${JSON.stringify(to)}${comma}`,
    )
    expect(next).not.toBe(t)
    return next
  })

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fw-dev-loop-'))
  cpSync(join(PROJECT_ROOT, 'definitions'), dir, { recursive: true })
  ;[server, browser] = await Promise.all([
    startServerProcess({ NODE_ENV: 'development', DEFINITIONS_DIR: dir }),
    launchBrowser(),
  ])
}, 180_000)
afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe('npm run dev', () => {
  it('shows every save by rename, shows a broken file as an overlay, and clears it when fixed', async () => {
    const ctx = await browser.newContext()
    await routeThirdParties(ctx)
    const page: Page = await ctx.newPage()
    const url = brandUrl('m10', server.port, '/grocery')
    await page.goto(url)
    const original = JSON.parse(readFileSync(file(), 'utf8')).headline as string
    await expect.poll(() => page.locator('h1').textContent()).toBe(original)

    // Two saves by rename in a row: the second is seen too (fs.watch on the old inode would not).
    setHeadline(original, 'First edit')
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 20_000 }).toBe('First edit')
    setHeadline('First edit', 'Second edit')
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 20_000 }).toBe('Second edit')

    // A missing comma: the open page shows the overlay with the validate line.
    setHeadline('Second edit', 'Broken edit', '')
    const overlay = page.locator('vite-error-overlay')
    await expect.poll(() => overlay.count(), { timeout: 20_000 }).toBe(1)
    const text = () => overlay.evaluate((el) => el.shadowRoot?.textContent ?? '')
    expect(await text()).toContain(OVERLAY_PLUGIN)
    expect(await text()).toMatch(
      /grocery\.json:\d+:\d+ {2}\/ {2}invalid JSON: expected a comma or `}` after the value of "headline"/,
    )

    // A page loaded while broken shows it too; the site still serves the last valid version.
    await page.goto(url)
    await expect.poll(() => overlay.count(), { timeout: 20_000 }).toBe(1)
    expect(await page.locator('h1').textContent()).toBe('Second edit')

    // Fixing the file reloads the page without the overlay and with the new text.
    saveByRename((t) => t.replace('"headline": "Broken edit"', '"headline": "Fixed edit",'))
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 20_000 }).toBe('Fixed edit')
    expect(await overlay.count()).toBe(0)
    await ctx.close()
  })
})
