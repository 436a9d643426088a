/**
 * Issue 35, acceptance 2 with JavaScript on (the form island enhancing every step; decisions 0230-0232,
 * 0524): Back (the browser's and the form's), a reload, a return visit and a resume link opened in a
 * new browser show the answers the server holds on every step (a resume link's new browser is asked
 * its contact details again, 0232); the thank-you page shows the number `npm run leads -- show`
 * reports as shown; `npm run funnels -- dropoff` counts the visitor as completed. A server of our own
 * points at the marketplace simulator, so the walk leases numbers at the server (0221, 0235).
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTACT_FIELD_NAMES } from '../../engine/constants'
import { validValue } from '../../engine/funnel/sample-values'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../fixtures/marketplace-simulator/simulator'
import { loadSnapshot } from '../model/funnel-catalogue'
import { brandUrl, launchBrowser, routeThirdParties } from './browser'
import { answerStep, waitForLive } from './funnel-driver'
import { newDataDir, PROJECT_ROOT, type ServerProcess, startServerProcess } from './server-process'

const funnel: ResolvedFunnel = loadSnapshot().funnels.get('quiz-otc')!
const BASE = '/quiz/otc'
const steps = funnel.steps
const last = steps.length - 1

let sim: MarketplaceSimulator
let server: ServerProcess
let browser: Browser
const dataDir = newDataDir('fw-held-answers-')

beforeAll(async () => {
  sim = await startMarketplaceSimulator()
  server = await startServerProcess({
    DATA_DIR: dataDir,
    MEDIAALPHA_BASE_URL: sim.url,
    MEDIAALPHA_RATE_LIMIT: '1000',
  })
  browser = await launchBrowser()
}, 180_000)
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await sim?.close()
})

const url = (path: string) => brandUrl('m10', server.port, path)
const stepPath = (i: number) => `${BASE}/${steps[i].name}`

async function context(): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  await routeThirdParties(ctx)
  return ctx
}

const stepShown = (tab: Page, i: number) =>
  tab.waitForFunction(
    (n) => document.querySelector('.funnel[data-live="true"] .funnel-form')?.getAttribute('data-step') === n,
    steps[i].name,
    { timeout: 20_000 },
  )

/** What step `i` shows in its inputs, by field: typed text, or the pressed option's value. */
async function shownAnswers(tab: Page, i: number): Promise<Record<string, string>> {
  const shown: Record<string, string> = {}
  for (const f of steps[i].fields) {
    if (f.kind === 'yes-no' || f.kind === 'choice') {
      const pressed = tab.locator(`fieldset:has(#field-${f.name}) button[aria-pressed="true"]`)
      shown[f.name] = (await pressed.count()) ? ((await pressed.getAttribute('value')) ?? '') : ''
    } else {
      const v = await tab.inputValue(`#field-${f.name}`)
      shown[f.name] = f.kind === 'tel' ? v.replace(/\D/g, '') : v
    }
  }
  return shown
}

/** What step `i` should show: every answer given, contact details left out for a resume link's browser. */
function heldAnswers(i: number, contactHidden = false): Record<string, string> {
  return Object.fromEntries(
    steps[i].fields.map((f) => {
      const hidden = contactHidden && (CONTACT_FIELD_NAMES as readonly string[]).includes(f.name)
      const v = String(validValue(f))
      return [f.name, hidden ? '' : f.kind === 'tel' ? v.replace(/\D/g, '') : v]
    }),
  )
}

async function expectHeld(tab: Page, i: number, how: string, contactHidden = false) {
  await stepShown(tab, i).catch(async (e) => {
    const at = await tab
      .locator('.funnel-form')
      .getAttribute('data-step')
      .catch(() => null)
    throw new Error(`${how}: wanted ${steps[i].name}, shows ${at} at ${tab.url()}: ${e}`)
  })
  expect({ how, step: steps[i].name, shown: await shownAnswers(tab, i) }).toEqual({
    how,
    step: steps[i].name,
    shown: heldAnswers(i, contactHidden),
  })
}

function cli(script: string, ...args: string[]): string {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'cli', script), ...args],
    {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    },
  )
  expect(r.status, r.stderr).toBe(0)
  return r.stdout
}

describe('with JavaScript on, every step shows the answers the server holds', () => {
  it('after Back, the form’s Back, a reload, a return visit and a resume link in a new browser; the thank-you number is the lead’s; drop-off counts the visitor as completed', async () => {
    const since = new Date(Date.now() - 60_000).toISOString()
    const ctx = await context()
    const tab = await ctx.newPage()
    const documents: string[] = []
    tab.on('request', (r) => r.resourceType() === 'document' && documents.push(new URL(r.url()).pathname))
    await tab.goto(url(BASE))
    await waitForLive(tab)
    // Every step but the last, answered in place.
    for (let i = 0; i < last; i++) {
      await stepShown(tab, i)
      await answerStep(tab, funnel)
    }
    await stepShown(tab, last)
    expect(documents).toEqual([BASE])

    // The browser's Back and Forward (in place: the island fetches the URL's step).
    for (let i = last - 1; i >= 0; i--) {
      await tab.goBack()
      await expectHeld(tab, i, 'browser back')
    }
    for (let i = 1; i < last; i++) {
      await tab.goForward()
      await expectHeld(tab, i, 'browser forward')
    }
    // The form's Back button, from the last step down to the first.
    await tab.goForward()
    await stepShown(tab, last)
    for (let i = last - 1; i >= 0; i--) {
      await tab.getByRole('button', { name: funnel.text.funnel.back }).click()
      await expectHeld(tab, i, 'form back')
    }
    // A reload of each step, and a return visit: a new tab at the funnel's address goes on where the
    // visitor stopped (the first step without an answer).
    for (let i = 0; i < last; i++) {
      await tab.goto(url(stepPath(i)))
      await expectHeld(tab, i, 'page load')
      await tab.reload()
      await expectHeld(tab, i, 'reload')
    }
    const back = await ctx.newPage()
    await back.goto(url(BASE))
    await stepShown(back, last)
    expect(new URL(back.url()).pathname).toBe(stepPath(last))
    await back.close()

    // A resume link opened in another browser: the answers but the contact details, on every step.
    const anonymousId = (await ctx.cookies()).find((c) => c.name === 'fw_anon')!.value
    const link = await tab.evaluate(
      async ({ anonymousId, path }) => {
        const r = await fetch('/api/funnel/resume-link', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ anonymousId, path }),
        })
        return ((await r.json()) as { url: string }).url
      },
      { anonymousId, path: BASE },
    )
    const other = await context()
    const elsewhere = await other.newPage()
    await elsewhere.goto(link)
    await stepShown(elsewhere, last)
    for (let i = 0; i < last; i++) {
      await elsewhere.goto(url(stepPath(i)))
      await expectHeld(elsewhere, i, 'resume link in a new browser', true)
    }
    await other.close()

    // The last step: the funnel finishes on the thank-you page (a page load).
    await tab.goto(url(stepPath(last)))
    await stepShown(tab, last)
    await answerStep(tab, funnel)
    await tab.waitForURL((u) => !u.pathname.startsWith(`${BASE}/`) && u.pathname !== BASE, {
      timeout: 20_000,
    })
    await tab.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
    const onPage = await tab
      .locator('[data-testid="thank-you-phone"] a')
      .getAttribute('href')
      .catch(() => null)
    const story = JSON.parse(cli('leads.ts', 'show', anonymousId, '--json')) as {
      numberShown: { number: string | null; source: string } | null
      entries: { kind: string; call?: { kind: string; ok: boolean } }[]
    }
    expect(story.numberShown).not.toBeNull()
    // The page shows the number the lead says, or none when the lead says none (outside business hours).
    expect(onPage?.replace(/\D/g, '') ?? null).toBe(story.numberShown!.number?.replace(/\D/g, '') ?? null)
    // Every lease is the server's (0235), each recorded: the thank-you page leased nothing itself.
    const leases = story.entries.filter((e) => e.kind === 'marketplace' && e.call?.kind === 'get-phone')
    expect(leases.length).toBeGreaterThan(0)
    expect(leases.every((e) => e.call?.ok)).toBe(true)
    // The header shows the page's number too (the line starts from the server's lease).
    if (story.numberShown!.source === 'leased')
      await expect
        .poll(() => tab.locator('[data-testid="header-phone"]').getAttribute('data-phone-raw'))
        .toBe(story.numberShown!.number!.replace(/\D/g, ''))
    await ctx.close()

    const report = JSON.parse(
      cli(
        'funnels.ts',
        'dropoff',
        funnel.id,
        '--since',
        since,
        '--until',
        new Date(Date.now() + 60_000).toISOString(),
        '--json',
      ),
    ) as { steps: { step: string; completed: number; left: number }[] }
    const final = report.steps.find((s) => s.step === steps[last].name)!
    expect(final).toMatchObject({ completed: 1, left: 0 })
  }, 240_000)
})
