/**
 * What a page makes the browser download, measured in gzip bytes (docs/decisions/0505): every
 * same-origin script and stylesheet a real Chromium requests while loading the page, hydrating it and
 * until the network is idle (so idle-time code such as the build check counts too). Sizes, not timings, so the check is deterministic.
 * Used by tests/e2e/size-budget.e2e.ts (fails over budget) and tools/bench/http.bench.ts (prints).
 */
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { BrowserContext } from 'playwright-core'
import { SnapshotStore } from '../server/content/snapshot-store'

/**
 * Budgets in gzip bytes, docs/decisions/0505, 0507, 0520 and 0524. Static pages (landing, home) and
 * funnel steps mount plain-DOM islands and load no React at all (0520, 0524); a funnel step runs no
 * funnel machine either (the server does): issue 35 asks ≤ 40 KB for it (it was 103.7 KB when it
 * hydrated its form, 0522; the seed's Nuxt stack loads 74.2 KB). 60 KB for static pages is below the
 * seed stack's 74 KB; they load ~27 KB today. The e2e size test fails a build whose landing, home or
 * funnel step page goes over; never raise them without a decision record.
 */
export const SIZE_BUDGETS = {
  landingJs: 60 * 1024,
  funnelJs: 40 * 1024,
  css: 15 * 1024,
} as const

/** The JavaScript targets the bench prints each page against: issue 19's for static pages, issue 35's for a funnel step. */
export const JS_TARGETS = { landing: 60 * 1024, funnel: 40 * 1024 } as const

export interface AssetSize {
  url: string
  kind: 'js' | 'css'
  bytes: number
  gzip: number
}

export interface PageSizes {
  url: string
  assets: AssetSize[]
  jsGzip: number
  cssGzip: number
}

export async function measurePage(context: BrowserContext, url: string): Promise<PageSizes> {
  const page = await context.newPage()
  const origin = new URL(url).origin
  const pending: Promise<AssetSize | null>[] = []
  page.on('response', (res) => {
    const u = res.url()
    if (!u.startsWith(origin)) return
    const type = res.request().resourceType()
    const kind: AssetSize['kind'] | null =
      type === 'script' || u.endsWith('.js')
        ? 'js'
        : type === 'stylesheet' || u.endsWith('.css')
          ? 'css'
          : null
    if (!kind || res.status() !== 200) return
    pending.push(
      res
        .body()
        .then((body) => ({
          url: u.slice(origin.length),
          kind,
          bytes: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
        }))
        .catch(() => null),
    )
  })
  await page.goto(url, { waitUntil: 'load' })
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', undefined, {
    timeout: 15_000,
  })
  // Idle callbacks (requestIdleCallback, 3 s timeout at most) may load more code: let them run, then
  // give their imports a moment. Not `networkidle`: the page keeps polling (phone lease, events).
  await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(null), { timeout: 3_000 })))
  await page.waitForTimeout(1_500)
  const assets = (await Promise.all(pending)).filter((a): a is AssetSize => a !== null)
  await page.close()
  const unique = [...new Map(assets.map((a) => [a.url, a])).values()].sort((a, b) => b.gzip - a.gzip)
  const sum = (kind: 'js' | 'css') => unique.filter((a) => a.kind === kind).reduce((t, a) => t + a.gzip, 0)
  return { url, assets: unique, jsGzip: sum('js'), cssGzip: sum('css') }
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/**
 * URL of the first page using one of the templates (a funnel at its first step), or null.
 * `origin` names the brand host as a pattern: `http://{brand}.localhost:3000`.
 */
export function pageUrlFor(templates: string[], origin: string, projectRoot: string): string | null {
  const snapshot = SnapshotStore.load(join(projectRoot, 'definitions'), projectRoot).current
  for (const template of templates)
    for (const [brandId, routes] of snapshot.routes)
      for (const route of routes) {
        const page = snapshot.pages.get(route.pageKey)
        if (page?.template !== template) continue
        const first = page.form ? snapshot.funnels.get(page.form)?.steps[0]?.name : undefined
        const path =
          route.pattern.source.replace(/\{[^}]*step[^}]*\}/, first ?? '').replace(/\/+$/, '') || '/'
        if (path.includes('{') || path.includes('*')) continue
        return `${origin.replace('{brand}', brandId)}${path}`
      }
  return null
}
