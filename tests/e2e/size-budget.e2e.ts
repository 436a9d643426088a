/**
 * The performance budget (docs/decisions/0505, 0507, 0520, 0524): JavaScript and CSS a landing page, a
 * brand home page and a funnel step page load, in gzip bytes, including the idle-time runtime; none of
 * them loads React (they hydrate nothing), and a funnel step runs no funnel machine (the server does).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { moduleGraph, publicModules, reactModules } from '../../tools/public-modules'
import { kb, measurePage, type PageSizes, pageUrlFor, SIZE_BUDGETS } from '../../tools/size-budget'
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

const origin = `http://{brand}.localhost:${port}`
const pages = [
  {
    name: 'a landing page',
    url: pageUrlFor(['landing'], origin, PROJECT_ROOT),
    js: SIZE_BUDGETS.landingJs,
    react: false,
  },
  {
    name: 'a brand home page',
    url: pageUrlFor(['home'], origin, PROJECT_ROOT),
    js: SIZE_BUDGETS.landingJs,
    react: false,
  },
  {
    name: 'a funnel step page',
    url: pageUrlFor(['funnel'], origin, PROJECT_ROOT),
    js: SIZE_BUDGETS.funnelJs,
    react: false,
  },
]

const scripts = (sizes: PageSizes) =>
  sizes.assets
    .filter((a) => a.kind === 'js')
    .map((a) => readFileSync(join(PROJECT_ROOT, 'dist', 'client', a.url.split('?')[0]!), 'utf8'))
/** React's production build links its error decoder; no other code we ship does. */
const loadsReact = (sizes: PageSizes) => scripts(sizes).some((code) => code.includes('react.dev/errors'))
/** The funnel machine's own action and actor names (engine/funnel/funnel-machine.ts) survive minifying. */
const loadsFunnelMachine = (sizes: PageSizes) =>
  scripts(sizes).some((code) => /\bstoreSubmission\b|\brunSubmit\b/.test(code))

/** What went over, readable in the failure message: the largest assets first. */
const breakdown = (sizes: PageSizes) =>
  `${sizes.url}: JS ${kb(sizes.jsGzip)}\n${sizes.assets.map((a) => `  ${kb(a.gzip).padStart(9)} ${a.url}`).join('\n')}`

describe('size budget', () => {
  it.each(pages)(
    `$name loads at most its JS budget and ${kb(SIZE_BUDGETS.css)} of CSS (gzip)`,
    async ({ url, js, react }) => {
      expect(url).not.toBeNull()
      const sizes = await measurePage(context, url!)
      // Static templates and funnel steps mount plain-DOM islands: React is never downloaded there
      // (docs/decisions/0520, 0524), nor the funnel machine (the server runs it).
      expect(loadsReact(sizes), breakdown(sizes)).toBe(react)
      expect(loadsFunnelMachine(sizes), breakdown(sizes)).toBe(false)
      expect(sizes.jsGzip, breakdown(sizes)).toBeLessThanOrEqual(js)
      expect(sizes.cssGzip, breakdown(sizes)).toBeLessThanOrEqual(SIZE_BUDGETS.css)
      // No control-center or style-guide code on a public page; Vike's client runtime is not needed
      // (each page hydrates from its own entry).
      expect(
        sizes.assets.some((a) => /primitives|control-center|entry-(server|client)-routing/.test(a.url)),
      ).toBe(false)
      // Every stylesheet once: a bundling slip once linked the same CSS twice under two names.
      const css = sizes.assets.filter((a) => a.kind === 'css').map((a) => a.url.replace(/\.[\w-]+\.css$/, ''))
      expect(new Set(css).size, breakdown(sizes)).toBe(css.length)
    },
  )
})

describe('a page settles', () => {
  // The browser reads or cancels every answer: an unread body keeps its request open, so Playwright's
  // networkidle and Lighthouse never settle (a visitor-record POST once did exactly that).
  it.each(pages)('$name: every request finishes, the network goes idle', async ({ url }) => {
    const tab = await context.newPage()
    const open = new Set<string>()
    tab.on('request', (r) => open.add(`${r.method()} ${r.url()}`))
    tab.on('requestfinished', (r) => open.delete(`${r.method()} ${r.url()}`))
    tab.on('requestfailed', (r) => open.delete(`${r.method()} ${r.url()}`))
    await tab.goto(url!)
    await tab.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    await tab
      .waitForLoadState('networkidle', { timeout: 10_000 })
      .catch(() => expect.fail(`still open after 10 s: ${[...open].join(', ')}`))
    await tab.close()
  })
})

describe("a funnel step's code (docs/decisions/0524)", () => {
  it('can load no React module and no funnel machine, by static or dynamic import', () => {
    const entry = join(PROJECT_ROOT, 'ui', 'pages', 'funnel', '+client.ts')
    const graph = moduleGraph(entry)
    const react = reactModules(publicModules(PROJECT_ROOT))
    expect(graph.size).toBeGreaterThan(10)
    expect([...graph].filter((f) => react.has(f) || f.endsWith('.tsx'))).toEqual([])
    const rel = [...graph].map((f) => f.slice(PROJECT_ROOT.length + 1))
    expect(
      rel.filter((f) => /engine[\\/]funnel[\\/](funnel-machine|posted-step|resume|buckets)\.ts$/.test(f)),
    ).toEqual([])
    expect(rel).toContain(join('ui', 'islands', 'funnel-form-island.ts'))
  })
})

describe('client build', () => {
  it('has no import cycles between chunks (the shell group takes modules without their imports)', () => {
    // With `includeDependenciesRecursively: false` (vite.config.ts) a cycle between chunks would leave
    // module execution order to the bundler; without one, every chunk runs after what it imports.
    const dir = join(PROJECT_ROOT, 'dist', 'client', 'assets')
    const files = ['chunks', 'entries'].flatMap((d) =>
      readdirSync(join(dir, d))
        .filter((f) => f.endsWith('.js'))
        .map((f) => `${d}/${f}`),
    )
    const imports = new Map(
      files.map((f) => [
        f,
        [...readFileSync(join(dir, f), 'utf8').matchAll(/(?:from|import)\s*"(\.[^"]+)"/g)].map((m) =>
          normalize(join(dirname(f), m[1]!)),
        ),
      ]),
    )
    const cycles: string[] = []
    const done = new Set<string>()
    const visit = (file: string, path: string[]) => {
      if (path.includes(file)) return void cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '))
      if (done.has(file)) return
      for (const dep of imports.get(file) ?? []) visit(dep, [...path, file])
      done.add(file)
    }
    for (const f of files) visit(f, [])
    expect(files.length).toBeGreaterThan(5)
    expect([...imports.values()].flat().length).toBeGreaterThan(5)
    expect(cycles).toEqual([])
  })
})
