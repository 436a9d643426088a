/**
 * What the control-center e2e files share: a production server of their own on a content repository
 * (CONTENT_SOURCE=git) with staff users in its data folder, a browser, signed-in tabs, the JSON API
 * called from a tab (with its session), and the screens' common moves: open a screen, commit from the
 * dialog, check a screen with axe and for sideways scrolling.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core'
import { expect } from 'vitest'
import { seriousViolations } from './axe'
import { brandUrl, launchBrowser, routeThirdParties } from './browser'
import { sendJson } from './http'
import { newDataDir, type ServerProcess, startServerProcess } from './server-process'
import { addStaff } from './staff-cli'
import { signIn as signInOverHttp } from './staff-publish'

export const PASSWORD = 'correct-horse-battery'

/** [email, name, role] */
export type StaffUser = readonly [string, string, string]

export interface CcSession {
  server: ServerProcess
  browser: Browser
  dataDir: string
  /** The control center's origin (brand ccc). */
  cc: string
  /**
   * A new context signed in as `email` (over HTTP, through the API the sign-in panel uses; the
   * session cookie handed to the browser), with a blank tab: the first screen the test opens is the
   * first load of the control center (control-center-ui's test 2 signs in through the panel).
   */
  signIn(email: string, options?: BrowserContextOptions): Promise<{ context: BrowserContext; page: Page }>
  close(): Promise<void>
}

/**
 * Starts the server (on a copy of the run's data folder, the staff users added with the staff CLI)
 * and the browser side by side.
 */
export async function startCcSession(opts: {
  prefix: string
  staff: readonly StaffUser[]
  env?: Record<string, string>
}): Promise<CcSession> {
  const dataDir = newDataDir(opts.prefix)
  addStaff({ DATA_DIR: dataDir }, PASSWORD, opts.staff)
  const [server, browser] = await Promise.all([
    startServerProcess({ DATA_DIR: dataDir, CONTENT_SOURCE: 'git', ...opts.env }),
    launchBrowser(),
  ])
  const cc = brandUrl('ccc', server.port, '')
  return {
    server,
    browser,
    dataDir,
    cc,
    async signIn(email, options = {}) {
      const cookie = await signInOverHttp(server.port, { email, password: PASSWORD })
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options })
      await routeThirdParties(context)
      const at = cookie.indexOf('=')
      await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: cc }])
      controlCenterOf.set(context, { port: server.port, origin: cc })
      const page = await context.newPage()
      return { context, page }
    },
    async close() {
      await browser.close()
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The control center a context signed in to (signIn), for its API calls from Node. */
const controlCenterOf = new WeakMap<BrowserContext, { port: number; origin: string }>()

/**
 * A JSON call to the control center's API as the tab's user: from Node with the session cookie the
 * browser holds now (no tab needs to have the control center loaded), or, for a context signIn did
 * not make, from the tab itself.
 */
export async function call(page: Page, method: string, path: string, body?: unknown) {
  const at = controlCenterOf.get(page.context())
  if (at) {
    const cookie = (await page.context().cookies(at.origin)).map((c) => `${c.name}=${c.value}`).join('; ')
    const host = new URL(at.origin).host
    // Node's client sends no Content-Length with a DELETE's body (it is not framed): none is sent.
    const sent = method === 'GET' || method === 'DELETE' ? undefined : (body ?? {})
    const r = await sendJson(at.port, host, method, path, sent, cookie)
    return { status: r.status, body: r.body ? JSON.parse(r.body) : null }
  }
  return page.evaluate(
    async ({ method, path, body }) => {
      const r = await fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
      })
      const text = await r.text()
      return { status: r.status, body: text ? JSON.parse(text) : null }
    },
    { method, path, body },
  )
}

/** Opens a screen of the control center and waits until it has loaded what it shows. */
export async function openScreen(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.waitForSelector('.cc-app')
  await page.waitForFunction(() => !/Loading /.test(document.body.innerText), null, { timeout: 30_000 })
}

/** Opens the commit dialog with `opener`, writes the message and commits; returns the dialog. */
export async function commitWithMessage(page: Page, opener: Locator, message: string): Promise<Locator> {
  await opener.click()
  const dialog = page.getByRole('dialog', { name: 'Commit to the branch' })
  await dialog.getByLabel('Message').fill(message)
  await dialog.getByRole('button', { name: 'Commit', exact: true }).click()
  return dialog
}

/** With CC_SCREENSHOTS=<folder>: a screenshot `<name>.png` there (of the whole page, or of one part), to look at. */
export async function screenshot(target: Page | Locator, name: string): Promise<void> {
  const shots = process.env.CC_SCREENSHOTS
  if (!shots) return
  mkdirSync(shots, { recursive: true })
  const path = join(shots, `${name}.png`)
  if ('goto' in target) await target.screenshot({ path, fullPage: true })
  else await target.screenshot({ path })
}

/**
 * The screen at each width (the current one when none is given): no serious axe violation, no
 * sideways scrolling, and a screenshot with CC_SCREENSHOTS. The viewport is left at the last width.
 */
export async function axeAndLook(page: Page, name: string, widths: number[] = []): Promise<void> {
  for (const width of widths.length ? widths : [null]) {
    const label = width ? `${name} at ${width}` : name
    if (width) {
      await page.setViewportSize({ width, height: page.viewportSize()?.height ?? 900 })
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    }
    await screenshot(page, width ? `${name}-${width}` : name)
    expect(await seriousViolations(page), label).toEqual([])
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
    expect(sideways, `${label} scrolls sideways`).toBe(false)
    expect(await headerTooHigh(page), label).toBeNull()
  }
}

/** One row of the control center's header: a 44 px button and its padding. */
const HEADER_ONE_ROW_PX = 56

/**
 * At 375 px the header is one row (the control center, the screen, Menu; defect 6 was 220–260 px):
 * null when it is (or at another width), else what is wrong. Every axe check of a screen makes it.
 */
export async function headerTooHigh(page: Page): Promise<string | null> {
  if (page.viewportSize()?.width !== 375) return null
  const header = await page.evaluate(
    () => document.querySelector('.cc-header-row')?.getBoundingClientRect().height,
  )
  return header !== undefined && header > HEADER_ONE_ROW_PX
    ? `header is ${Math.round(header)} px high, more than one row`
    : null
}

/** A branch with `edits` committed through the API (the editors are someone else's screens). */
// biome-ignore lint/suspicious/noExplicitAny: the documents are edited as JSON
export async function branchWith(page: Page, name: string, edits: [string, (doc: any) => void][]) {
  expect((await call(page, 'POST', '/api/cc/branches', { title: name, name })).status).toBe(201)
  for (const [path, edit] of edits) {
    const file = await call(page, 'GET', `/api/cc/branches/${name}/file?path=${path}`)
    const doc = JSON.parse(file.body.text)
    edit(doc)
    const put = await call(page, 'PUT', `/api/cc/branches/${name}/drafts?path=${path}`, {
      text: `${JSON.stringify(doc, null, 2)}\n`,
    })
    expect(put.status).toBe(200)
  }
  const head = (await call(page, 'GET', `/api/cc/branches/${name}`)).body.branch.head
  const commit = await call(page, 'POST', `/api/cc/branches/${name}/commits`, {
    message: name,
    expectedHead: head,
    paths: edits.map(([p]) => p),
  })
  expect(commit.status).toBe(201)
  return commit.body.commit as string
}
