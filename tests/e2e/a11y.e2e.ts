/**
 * axe-core on every page template, in both colour modes, plus 320 px width and 200 % zoom. No
 * serious or critical violation may remain. Pages are found from the snapshot, so templates that
 * other features add (landing, funnel steps, reviews…) are checked as soon as a page uses them.
 */
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { SnapshotStore } from '../../server/content/snapshot-store'
import { seriousViolations } from './axe'
import { brandUrl, launchBrowser, routeThirdParties } from './browser'
import { headerClashes } from './layout'
import { PROJECT_ROOT } from './server-process'

const port = inject('port')
let browser: Browser

interface Target {
  name: string
  url: string
}

/** One page per template (first brand that serves it), plus error, brand index and style guide. */
function targets(): Target[] {
  const snapshot = SnapshotStore.load(join(PROJECT_ROOT, 'definitions'), PROJECT_ROOT).current
  const seen = new Set<string>()
  const out: Target[] = []
  for (const [brandId, routes] of snapshot.routes) {
    for (const route of routes) {
      const page = snapshot.pages.get(route.pageKey)
      if (!page || seen.has(page.template)) continue
      // A concrete URL: optional parameters dropped; required ones take the first step's name.
      const firstStep = page.form ? snapshot.funnels.get(page.form)?.steps[0]?.name : undefined
      let ok = true
      const path =
        route.pattern.source.replace(/\/\{[^}]+\?\}/g, '').replace(/\{[^}]+\}/g, () => {
          if (!firstStep) ok = false
          return firstStep ?? ''
        }) || '/'
      if (!ok || path.includes('*')) continue
      seen.add(page.template)
      out.push({ name: `${page.template} (${brandId} ${path})`, url: brandUrl(brandId, port, path) })
    }
  }
  out.push({ name: 'error 404', url: brandUrl('m10', port, '/no-such-page') })
  out.push({ name: 'brand index', url: `http://localhost:${port}/` })
  out.push({ name: 'primitives style guide', url: brandUrl('ccc', port, '/_primitives') })
  return out
}

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

async function open(url: string, opts: { scheme: 'light' | 'dark'; width?: number }) {
  const context = await browser.newContext({
    colorScheme: opts.scheme,
    viewport: { width: opts.width ?? 1100, height: 900 },
  })
  await routeThirdParties(context)
  const page = await context.newPage()
  await page.goto(url)
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  return { context, page }
}

// One load per page: the colour scheme is switched the way the OS does it (the page follows) and the
// width by resizing the window, so every check below runs on the page a visitor has in front of them.
describe('axe: no serious or critical violations, in both colour modes, at 320 px and at 200 % zoom', () => {
  for (const target of targets()) {
    it(target.name, async () => {
      const { context, page } = await open(target.url, { scheme: 'light' })
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme })
        await page.waitForFunction((s) => document.documentElement.dataset.colorMode === s, scheme)
        expect({ scheme, violations: await seriousViolations(page) }).toEqual({ scheme, violations: [] })
      }
      await page.emulateMedia({ colorScheme: 'light' })
      // Browser zoom shrinks the CSS viewport: 200 % of a 1280 px window lays out at 640 CSS px, and
      // 200 % of a 640 px window at 320 (WCAG 1.4.10 reflow): usable, no horizontal scrolling.
      for (const width of [320, 640]) {
        await page.setViewportSize({ width, height: 900 })
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        )
        expect({ width, overflow: Math.max(0, overflow) }).toEqual({ width, overflow: 0 })
        expect({ width, header: await headerClashes(page) }).toEqual({ width, header: [] })
        expect({ width, violations: await seriousViolations(page) }).toEqual({ width, violations: [] })
      }
      await context.close()
    })
  }
})

describe('visible focus', () => {
  it('every focusable element on a page shows a focus indicator', async () => {
    const { context, page } = await open(brandUrl('m10', port, '/'), { scheme: 'light' })
    const missing: string[] = []
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab')
      const info = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null
        if (!el || el === document.body) return null
        const s = getComputedStyle(el)
        return {
          name: el.outerHTML.slice(0, 80),
          outline: s.outlineStyle !== 'none' && s.outlineWidth !== '0px',
        }
      })
      if (info && !info.outline) missing.push(info.name)
    }
    expect(missing).toEqual([])
    await context.close()
  })
})
