import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  STAND_IN_DRAFT,
  startTextgenStandIn,
  type TextgenMode,
  type TextgenStandIn,
} from '../fixtures/textgen-stand-in/stand-in'
import { seriousViolations } from './axe'
import { type CcSession, call, headerTooHigh, startCcSession } from './cc-session'

const BRANCH = 'factory'
/** Short, so a hanging provider fails quickly; long enough for a held stream to be seen in the page. */
const TIMEOUT_MS = 15_000
const STEP_MS = 120_000
const FINAL = ['succeeded', 'failed', 'cancelled']
/** expect.poll waits 1 s by default: too short for a screen on a shared 2-core machine. */
const POLL = { timeout: 30_000 }

let session: CcSession
let textgen: TextgenStandIn
let cc: string
let editor: BrowserContext
let api: Page

beforeAll(async () => {
  textgen = await startTextgenStandIn()
  session = await startCcSession({
    prefix: 'fw-cc-factory-',
    staff: [
      ['ed@x.test', 'Ed', 'editor'],
      ['vi@x.test', 'Vi', 'viewer'],
    ],
    env: {
      TEXTGEN_BASE_URL: textgen.url,
      TEXTGEN_MODEL: 'stand-in-model',
      TEXTGEN_TIMEOUT_MS: String(TIMEOUT_MS),
    },
  })
  cc = session.cc
  editor = await signedIn('ed@x.test')
  api = await editor.newPage()
  await api.goto(`${cc}/`)
  expect((await call(api, 'POST', '/api/cc/branches', { title: 'Factory' })).status).toBe(201)
}, 180_000)

afterAll(async () => {
  await session?.close()
  await textgen?.close()
})

/** A context signed in as this staff member. */
async function signedIn(email: string, width = 1280): Promise<BrowserContext> {
  const { context, page } = await session.signIn(email, { viewport: { width, height: 900 } })
  await page.close()
  return context
}

function setMode(mode: TextgenMode, hold = false) {
  textgen.mode = mode
  textgen.slowDelayMs = 30
  textgen.holdSlow = hold
}

async function startRun(topic: string): Promise<string> {
  const r = await call(api, 'POST', `/api/cc/branches/${BRANCH}/runs`, {
    author: 'mpa-agents',
    brief: { topic, carrier: 'Humana' },
  })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body.run.id
}

async function waitStatus(page: Page, want: string, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (w) => document.querySelector('[data-testid="run-status"]')?.textContent === w,
    want,
    { timeout },
  )
}

let articleRun = ''
let failedRun = ''

describe('content factory, CONTROL-CENTER §8 Issue 3 steps 5–6 in the browser', () => {
  it(
    '5: a run for mpa-agents / "Humana dental" streams into the run page, shows the exact prompt, succeeds; Create article opens it in /articles and previews it on mpa',
    async () => {
      setMode('slow', true)
      const page = await editor.newPage()
      await page.goto(`${cc}/content-factory?branch=${BRANCH}`)
      await expect
        .poll(() => page.getByTestId('textgen-config').textContent(), POLL)
        .toContain('stand-in-model')
      // The server's 400 is shown at its field.
      await page.getByRole('button', { name: 'Start run' }).click()
      await expect
        .poll(() => page.locator('.cf-field-topic .cf-field-error').textContent(), POLL)
        .toMatch(/\S/)
      expect(await page.getByLabel('Topic').getAttribute('aria-invalid')).toBe('true')
      await page.getByLabel('Author').selectOption('mpa-agents')
      await page.getByLabel('Topic').fill('Humana dental')
      await page.getByLabel('Carrier (optional)').fill('Humana')
      await Promise.all([
        page.waitForURL(/\/content-factory\/runs\/\d+\?branch=factory$/),
        page.getByRole('button', { name: 'Start run' }).click(),
      ])
      articleRun = /runs\/(\d+)/.exec(page.url())![1]
      // Output streams in: part of it while the run is still running, all of it at the end.
      const partial = await page.waitForFunction(
        () => {
          const s = document.querySelector('[data-testid="run-status"]')?.textContent
          const out = document.querySelector('[data-testid="run-output"]')?.textContent ?? ''
          return s === 'running' && out.length > 0 ? out.length : false
        },
        null,
        { timeout: 20_000, polling: 100 },
      )
      const partialLength = (await partial.jsonValue()) as number
      const full = JSON.stringify(STAND_IN_DRAFT)
      expect(partialLength).toBeLessThan(full.length)
      expect(full.startsWith((await page.getByTestId('run-output').textContent()) ?? '-')).toBe(true)
      expect(await page.getByTestId('run-attempt').textContent()).toBe('attempt 1 of 2')
      textgen.holdSlow = false
      await waitStatus(page, 'succeeded')
      expect(await page.getByTestId('run-output').textContent()).toBe(full)
      expect(await page.getByTestId('run-checks').textContent()).toContain(
        'Article schema, dry snapshot build: passing',
      )
      expect(await page.getByTestId('run-tokens').textContent()).toMatch(/^321 \+ \d+$/)
      // The exact prompt: what the provider received, verbatim.
      await page.getByTestId('run-prompt').locator('summary').click()
      const shown = await page.getByTestId('run-prompt').locator('pre').allTextContents()
      const sent = (textgen.requests.at(-1)!.messages as { content: string }[]).map((m) => m.content)
      expect(shown).toEqual(sent)
      expect(shown.join('\n')).toContain('Topic: Humana dental')
      expect(shown.join('\n')).toContain('Voice: warm, plain and practical')
      // Create article → the article editor on this branch, with a preview on mpa.
      await Promise.all([
        page.waitForURL(`${cc}/articles?branch=${BRANCH}&article=${STAND_IN_DRAFT.slug}`),
        page.getByRole('button', { name: 'Create article on this branch' }).click(),
      ])
      await page.getByRole('textbox', { name: 'Body (Markdown)' }).waitFor()
      const preview = page.getByTestId('article-preview').getByRole('link', { name: /Preview on mpa/ })
      const href = (await preview.getAttribute('href'))!
      expect(href).toContain(
        `mpa.localhost:${session.server.port}/reviews/${STAND_IN_DRAFT.slug}?branch=${BRANCH}`,
      )
      const mpa = await editor.newPage()
      const res = await mpa.goto(href)
      expect(res?.status()).toBe(200)
      expect(await mpa.locator('h1').first().textContent()).toBe(STAND_IN_DRAFT.title)
      await mpa.close()
      // The run links to its article now.
      await page.goto(`${cc}/content-factory/runs/${articleRun}?branch=${BRANCH}`)
      await expect
        .poll(() => page.getByRole('link', { name: `Open article ${STAND_IN_DRAFT.slug}` }).count(), POLL)
        .toBe(1)
      await page.close()
    },
    STEP_MS,
  )

  it(
    '6: invalid-json → one repair retry, then failed with the validation errors; hang → fails at TEXTGEN_TIMEOUT_MS; Cancel stops a running run; each is audited',
    async () => {
      // A provider that never answers fails the run at TEXTGEN_TIMEOUT_MS: started first (its request
      // arrives, then nothing), so that wait passes while the other runs are checked (two runs at a time).
      setMode('hang')
      const before = textgen.requests.length
      const hang = await startRun('Humana over-the-counter')
      await expect.poll(() => textgen.requests.length - before, POLL).toBe(1)

      // invalid-json: two attempts, the second with the validation problems sent back.
      setMode('invalid-json')
      const bad = await startRun('Humana vision')
      failedRun = bad
      const badPage = await editor.newPage()
      await badPage.goto(`${cc}/content-factory/runs/${bad}?branch=${BRANCH}`)
      await waitStatus(badPage, 'failed')
      expect(await badPage.getByTestId('run-attempt').textContent()).toBe('attempt 2 of 2')
      expect(await badPage.getByText('repair retry').count()).toBe(1)
      expect(await badPage.getByTestId('run-error').textContent()).toContain('still unusable after a repair')
      expect((await badPage.getByTestId('validation-errors').locator('li').allTextContents()).length).toBe(1)
      expect(textgen.requests.length - before).toBe(3)
      expect((textgen.requests.at(-1)!.messages as unknown[]).length).toBeGreaterThan(2)

      // Cancel stops a running run: a slow stream held halfway.
      setMode('slow', true)
      const slow = await startRun('Humana hearing')
      const slowPage = await editor.newPage()
      await slowPage.goto(`${cc}/content-factory/runs/${slow}?branch=${BRANCH}`)
      await waitStatus(slowPage, 'running')
      await expect.poll(() => textgen.requests.length - before, POLL).toBe(4)
      await slowPage.getByRole('button', { name: 'Cancel run' }).click()
      await waitStatus(slowPage, 'cancelled')
      expect(await slowPage.getByTestId('run-error').textContent()).toBe('Cancelled: cancelled by staff')
      expect(await slowPage.getByRole('button', { name: 'Cancel run' }).count()).toBe(0)

      // The hanging provider's run failed at TEXTGEN_TIMEOUT_MS.
      const hangPage = await editor.newPage()
      await hangPage.goto(`${cc}/content-factory/runs/${hang}?branch=${BRANCH}`)
      await waitStatus(hangPage, 'failed', TIMEOUT_MS + 30_000)
      expect(await hangPage.getByTestId('run-error').textContent()).toBe(
        `Failed: no answer within ${TIMEOUT_MS / 1000} s`,
      )

      // The runs list shows every state; the audit log has each run.
      await badPage.goto(`${cc}/content-factory/runs?branch=${BRANCH}`)
      await badPage.waitForSelector('[data-testid="run-table"]')
      expect((await badPage.getByTestId('run-status').allTextContents()).sort()).toEqual([
        'cancelled',
        'failed',
        'failed',
        'succeeded',
      ])
      const audit = await call(api, 'GET', `/api/cc/audit?branch=${BRANCH}&limit=100`)
      expect(audit.status).toBe(200)
      const entries = audit.body.entries as { action: string; details: { run?: string; status?: string } }[]
      const of = (run: string) =>
        entries
          .filter((e) => String(e.details?.run) === run)
          .map((e) => (e.action === 'run.finish' ? `finish:${e.details.status}` : e.action))
          .sort()
      expect(of(articleRun)).toEqual(['finish:succeeded', 'run.start', 'run.to-article'])
      expect(of(bad)).toEqual(['finish:failed', 'run.start'])
      expect(of(hang)).toEqual(['finish:failed', 'run.start'])
      expect(of(slow)).toEqual(['finish:cancelled', 'run.cancel', 'run.start'])
      for (const p of [badPage, slowPage, hangPage]) await p.close()
      for (const id of [bad, slow, hang]) {
        const r = await call(api, 'GET', `/api/cc/runs/${id}`)
        expect(FINAL).toContain(r.body.run.status)
      }
    },
    STEP_MS,
  )

  it('viewers read runs but cannot start, cancel or create; the screens are axe clean at 1280 and 375 px', async () => {
    const viewer = await signedIn('vi@x.test')
    const page = await viewer.newPage()
    await page.goto(`${cc}/content-factory?branch=${BRANCH}`)
    await page.waitForSelector('[data-testid="run-table"]')
    expect(await page.getByRole('button', { name: 'Start run' }).isDisabled()).toBe(true)
    await page.goto(`${cc}/content-factory/runs/${articleRun}?branch=${BRANCH}`)
    await waitStatus(page, 'succeeded')
    expect(await page.getByRole('button', { name: /Cancel run|Create article/ }).count()).toBe(0)
    // A run that does not exist is the 404 page, like any unknown document.
    expect((await page.goto(`${cc}/content-factory/runs/999999?branch=${BRANCH}`))?.status()).toBe(404)
    await viewer.close()

    const shots = process.env.CC_SCREENSHOTS
    if (shots) mkdirSync(shots, { recursive: true })
    const problems: string[] = []
    const p = await editor.newPage()
    for (const width of [1280, 375]) {
      await p.setViewportSize({ width, height: 900 })
      for (const [name, path] of [
        ['overview', `/content-factory?branch=${BRANCH}`],
        ['authors', `/content-factory/authors?branch=${BRANCH}`],
        ['runs', `/content-factory/runs?branch=${BRANCH}`],
        ['run', `/content-factory/runs/${articleRun}?branch=${BRANCH}`],
        ['run-failed', `/content-factory/runs/${failedRun}?branch=${BRANCH}`],
      ]) {
        await p.goto(`${cc}${path}`)
        await p.waitForSelector('.cc-page h1')
        await p.waitForFunction(() => !/Loading /.test(document.body.innerText), null, { timeout: 20_000 })
        if (shots) await p.screenshot({ path: join(shots, `cf-${name}-${width}.png`), fullPage: true })
        problems.push(...(await seriousViolations(p)).map((v) => `${name}@${width}: ${v}`))
        const sideways = await p.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
        if (sideways) problems.push(`${name}@${width}: scrolls sideways`)
        const header = await headerTooHigh(p)
        if (header) problems.push(`${name}@${width}: ${header}`)
      }
    }
    await p.close()
    expect(problems).toEqual([])
  }, 240_000) // Ten screens through axe: about a minute, several on a loaded shared machine.
})
