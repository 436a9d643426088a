/**
 * npm run bench -- control-center: how staff feel the control center (issue 28, "Speed staff feel").
 *
 * 1. Commit p50 through the branch service (drafts → one commit, one instance): the in-process object
 *    writer (docs/decisions/0986) beside the old path — one git process per blob, read-tree,
 *    update-index, write-tree, commit-tree, rev-parse, log — measured in the same run
 *    (`ContentRepo.processWrites`, a bench-only switch).
 * 2. Time to first data of the API answers behind the branches list, a branch screen and the page
 *    editor, with several branches each holding a fresh commit (no snapshot cached: what a busy
 *    machine's first look costs), through the services the routes call.
 * 3. In Chromium, against the production build (`npm run build` first; skipped without one): time to
 *    a usable branches list, branch screen and page editor, and the preview's follow-up after typing a
 *    headline (the typed text shown in the preview; then the server's render of the saved draft).
 *
 * The "before" column of 2 and 3 is recorded: the same sections run against the code before this
 * change (main at 65b826b) on this machine, marked "recorded".
 */
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { setField } from '../../engine/control-center/content/set-field'
import { loadConfig } from '../../server/config'
import {
  type ContentServices,
  type OpenedContent,
  openContent,
  startContentServices,
} from '../../server/content/content-services'
import { setLogLevel } from '../../server/log'
import { createStaffUser, type StaffUser } from '../../server/store/auth-store'
import { openStore, type Store } from '../../server/store/open-store'
import { brandUrl, launchBrowser, routeThirdParties } from '../../tests/e2e/browser'
import { newDataDir, PROJECT_ROOT, startServerProcess } from '../../tests/e2e/server-process'
import { addStaff } from '../../tests/e2e/staff-cli'
import type { BenchTargets } from './targets'

const GROCERY = 'definitions/pages/grocery.json'
const PAGE_KEY = 'grocery-allowance-r2'
const PAGE_FILE = `definitions/pages/${PAGE_KEY}.json`
const COMMITS = 15
const BRANCHES = 12
const ROUNDS = 5
const PASSWORD = 'bench-password-1'

/** Issue 28's targets. */
const TARGET = { commitMs: 150, apiMs: 300, screenMs: 1500, previewMs: 1500 }

/**
 * Before this change: this file's sections run on the code of main (65b826b), same machine, 26 Nov
 * 2026, with other work running (load average 21 for the API rows, 30 for the Chromium rows — on 2
 * cores, so the Chromium figures mostly measure the machine). Commit p50's old path is measured
 * live instead.
 */
const RECORDED_BEFORE: Record<string, number> = {
  'branches list API': 2550,
  'branches list API, all changed': 10131,
  'branch screen API': 2488,
  'page editor API': 1181,
  'branches list usable': 2415,
  'branch screen usable': 3990,
  'page editor usable': 3829,
  'preview shows typed text': 365,
  "preview shows the server's render": 3919,
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]
const pad = (s: string | number, n: number) => String(s).padEnd(n)

interface Row {
  what: string
  before: string
  now: number | null
  target: number
}

function print(rows: Row[], targets: BenchTargets): void {
  console.log(`\n${pad('', 40)}${pad('before', 22)}${pad('now', 10)}target`)
  for (const r of rows) {
    const verdict = targets.check(
      r.what.trim(),
      r.now === null ? '—' : `${Math.round(r.now)} ms`,
      `≤ ${r.target} ms`,
      r.now === null ? null : r.now <= r.target,
    )
    console.log(
      `${pad(r.what, 40)}${pad(r.before, 22)}${pad(r.now === null ? '—' : `${Math.round(r.now)} ms`, 10)}≤ ${r.target} ms  ${verdict}`,
    )
  }
}

const recorded = (what: string) => {
  const v = RECORDED_BEFORE[what]
  return v === null || v === undefined ? '—' : `${v} ms (recorded)`
}

async function openServices(dir: string) {
  const config = {
    ...loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error' }),
    contentSource: 'git' as const,
    contentGitDir: join(dir, 'content.git'),
    contentRemote: null,
  }
  const store: Store = await openStore({ databaseUrl: null, dataDir: null })
  const opened = (await openContent(config)) as OpenedContent
  const cc: ContentServices = startContentServices(opened, store, config)
  const user: StaffUser = await createStaffUser(store.db, {
    email: `bench-${randomUUID()}@x.test`,
    name: 'Bench',
    password: 'pw',
    role: 'admin',
  })
  return { cc, store, user }
}

/** Commit p50, new and old path alternated on one repository; then the API answers' first data. */
async function services(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'fw-bench-cc-'))
  const { cc, store, user } = await openServices(dir)
  const repo = cc.repository.repo
  const { branches, queries } = cc
  const edit = async (branch: string, value: string, path = GROCERY) => {
    const head = await branches.head(branch)
    const text = await repo.readText(`${head}:${path}`)
    await branches.saveDraft(user, branch, path, setField(text!, '/headline', value))
    const t = performance.now()
    await branches.commit(user, branch, { message: value, expectedHead: head })
    return performance.now() - t
  }
  try {
    await branches.createBranch(user, { name: 'bench', title: 'Bench' })
    const now: number[] = []
    const old: number[] = []
    for (let i = 0; i < COMMITS; i++) {
      repo.processWrites = false
      now.push(await edit('bench', `Headline new ${i}`))
      repo.processWrites = true
      old.push(await edit('bench', `Headline old ${i}`))
    }
    repo.processWrites = false
    for (let b = 0; b < BRANCHES; b++) await branches.createBranch(user, { name: `b-${b}`, title: `B ${b}` })
    const cold: number[] = []
    const list: number[] = []
    const one: number[] = []
    const editor: number[] = []
    for (let r = 0; r < ROUNDS; r++) {
      // A fresh commit on every branch: no snapshot of any head is built yet (the worst first look).
      for (let b = 0; b < BRANCHES; b++) await edit(`b-${b}`, `Round ${r} branch ${b}`, PAGE_FILE)
      let t = performance.now()
      await queries.list()
      cold.push(performance.now() - t)
      // The usual look: one branch committed since the last one.
      await edit(`b-${BRANCHES - 1}`, `Round ${r} once more`, PAGE_FILE)
      t = performance.now()
      await queries.list()
      list.push(performance.now() - t)
      await edit('b-0', `Round ${r} again`, PAGE_FILE)
      t = performance.now()
      await queries.get('b-0', user)
      one.push(performance.now() - t)
      await edit('b-1', `Round ${r} again`, PAGE_FILE)
      t = performance.now()
      await Promise.all([queries.files('b-1', user, 'page'), queries.file('b-1', user, PAGE_FILE)])
      editor.push(performance.now() - t)
    }
    return [
      {
        what: 'commit p50 (drafts → commit)',
        before: `${Math.round(p50(old))} ms (old path)`,
        now: p50(now),
        target: TARGET.commitMs,
      },
      {
        what: 'branches list API',
        before: recorded('branches list API'),
        now: p50(list),
        target: TARGET.apiMs,
      },
      {
        what: `  ${BRANCHES + 1} branches all changed (cold)`,
        before: recorded('branches list API, all changed'),
        now: p50(cold),
        target: TARGET.apiMs,
      },
      {
        what: 'branch screen API',
        before: recorded('branch screen API'),
        now: p50(one),
        target: TARGET.apiMs,
      },
      {
        what: 'page editor API',
        before: recorded('page editor API'),
        now: p50(editor),
        target: TARGET.apiMs,
      },
    ]
  } finally {
    await cc.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The API answers a screen waited for, slowest first (`/api/cc/… 420 ms`), from its last load. */
const slowest = new Map<string, string>()

/** Navigates and waits for the screen's first usable element. */
async function usable(page: Page, url: string, selector: string): Promise<number> {
  const answers: { url: string; ms: number }[] = []
  const since = Date.now()
  const on = (r: import('playwright-core').Request) => {
    const u = new URL(r.url())
    const timing = r.timing()
    // Only this screen's own requests (an earlier screen's may still be finishing).
    if (!u.pathname.startsWith('/api/cc/') || timing.startTime < since) return
    answers.push({ url: u.pathname + u.search, ms: timing.responseEnd })
  }
  page.on('requestfinished', on)
  const t = performance.now()
  await page.goto(url)
  await page.locator(selector).first().waitFor({ timeout: 60_000 })
  const ms = performance.now() - t
  page.off('requestfinished', on)
  slowest.set(
    new URL(url).pathname,
    answers
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((a) => `${a.url.slice(0, 60)} ${Math.round(a.ms)} ms`)
      .join(', '),
  )
  return ms
}

/** The production server in Chromium: screens usable, and the preview following typing. */
async function browser(): Promise<Row[]> {
  const rows = (now: Record<string, number | null>): Row[] =>
    Object.entries(now).map(([what, v]) => ({
      what,
      before: recorded(what),
      now: v,
      target: what.startsWith('preview') ? TARGET.previewMs : TARGET.screenMs,
    }))
  if (!existsSync(join(PROJECT_ROOT, 'dist', 'app', 'server.mjs'))) {
    console.log('(no production build: run `npm run build` for the Chromium figures)')
    return rows({
      'branches list usable': null,
      'branch screen usable': null,
      'page editor usable': null,
      'preview shows typed text': null,
      "preview shows the server's render": null,
    })
  }
  const dataDir = newDataDir('fw-bench-cc-ui-')
  addStaff({ DATA_DIR: dataDir }, PASSWORD, [['bench@x.test', 'Bench', 'admin']])
  const [server, chromium] = await Promise.all([
    startServerProcess({ DATA_DIR: dataDir, CONTENT_SOURCE: 'git' }),
    launchBrowser(),
  ])
  try {
    const cc = brandUrl('ccc', server.port, '')
    const context = await chromium.newContext({ viewport: { width: 1280, height: 800 } })
    await routeThirdParties(context)
    const page = await context.newPage()
    await page.goto(`${cc}/`)
    const api = (method: string, path: string, body?: unknown) =>
      page.evaluate(
        async ({ method, path, body }) => {
          const r = await fetch(path, {
            method,
            headers: { 'Content-Type': 'application/json' },
            body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
          })
          return { status: r.status, text: await r.text() }
        },
        { method, path, body },
      )
    await api('POST', '/api/_auth/session', { email: 'bench@x.test', password: PASSWORD })
    for (let b = 0; b < 4; b++)
      await api('POST', '/api/cc/branches', { title: `Bench ${b}`, name: `bench-${b}` })
    const list: number[] = []
    const one: number[] = []
    const editor: number[] = []
    for (let r = 0; r < 3; r++) {
      list.push(await usable(page, `${cc}/branches`, '[data-testid="branch-table"]'))
      one.push(await usable(page, `${cc}/branches/bench-0`, '[data-testid="branch-head"]'))
      editor.push(
        await usable(
          page,
          `${cc}/pages/${PAGE_KEY}?branch=bench-1`,
          '[data-testid="page-form-content"] input',
        ),
      )
    }
    // Preview follow-up: type a headline, time until the preview shows it, then the server's render.
    const typed: number[] = []
    const rendered: number[] = []
    const frameHeadline = async () => {
      const frame = await (await page.getByTestId('preview-frame').elementHandle())?.contentFrame()
      return frame
        ?.locator('[data-testid="headline"]')
        .textContent({ timeout: 200 })
        .catch(() => null)
    }
    await page.goto(`${cc}/pages/${PAGE_KEY}?branch=bench-2`)
    const input = page.getByLabel('Headline', { exact: true })
    await input.waitFor({ timeout: 60_000 })
    while (!(await frameHeadline())) await page.waitForTimeout(100)
    for (let i = 0; i < 3; i++) {
      const text = `Bench headline ${i} ${randomUUID().slice(0, 6)}`
      // Everything but the last key, saved and rendered by the server (the frame loaded again): the
      // preview is idle before the timed key.
      const loads = () => page.evaluate(() => (window as unknown as { fwLoads?: number }).fwLoads ?? 0)
      await page.getByTestId('preview-frame').evaluate((f: HTMLIFrameElement) => {
        const w = window as unknown as { fwLoads?: number; fwCounting?: boolean }
        w.fwLoads = 0
        if (w.fwCounting) return
        w.fwCounting = true
        f.addEventListener('load', () => {
          w.fwLoads = (w.fwLoads ?? 0) + 1
        })
      })
      await input.fill(text.slice(0, -1))
      const settled = performance.now()
      while (
        (await page.getByTestId('save-state').first().textContent()) !== 'Draft saved' ||
        (await loads()) === 0 ||
        (await frameHeadline()) !== text.slice(0, -1)
      ) {
        if (performance.now() - settled > 30_000) break
        await page.waitForTimeout(50)
      }
      await page.waitForTimeout(500)
      await page.evaluate(() => {
        ;(window as unknown as { fwLoads?: number }).fwLoads = 0
      })
      const t = performance.now()
      await input.press(text.at(-1)!)
      while ((await frameHeadline()) !== text) {
        if (performance.now() - t > 20_000) break
        await page.waitForTimeout(20)
      }
      typed.push(performance.now() - t)
      // The autosave's reload: the frame loads again and still shows the text (the server's render).
      while (
        (await page.evaluate(() => (window as unknown as { fwLoads?: number }).fwLoads ?? 0)) === 0 ||
        (await frameHeadline()) !== text
      ) {
        if (performance.now() - t > 20_000) break
        await page.waitForTimeout(20)
      }
      rendered.push(performance.now() - t)
    }
    await context.close()
    return rows({
      'branches list usable': p50(list),
      'branch screen usable': p50(one),
      'page editor usable': p50(editor),
      'preview shows typed text': p50(typed),
      "preview shows the server's render": p50(rendered),
    })
  } finally {
    await chromium.close()
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export default async function run(targets: BenchTargets): Promise<void> {
  setLogLevel('error')
  console.log(
    `load average ${loadavg()[0].toFixed(1)}; p50 of ${COMMITS} commits, ${ROUNDS} rounds, ${BRANCHES} branches`,
  )
  const only = process.env.CC_BENCH_SECTION
  const rows = [
    ...(only === 'browser' ? [] : await services()),
    ...(only === 'services' ? [] : await browser()),
  ]
  print(rows, targets)
  if (slowest.size) {
    console.log('\nslowest API answers of each screen (last load):')
    for (const [screen, answers] of slowest) console.log(`  ${screen}: ${answers}`)
  }
}
