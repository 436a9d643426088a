/**
 * What only a browser can show of a funnel step (docs/decisions/0524): the server renders every step
 * and runs the funnel; a plain-DOM island enhances the form. Checked here: the enhancement (checks as
 * typed, the phone mask, in-place step changes with the progress animation, Back), the start-up race
 * on a slow phone (Chromium CDP: 400 ms latency, 50 KB/s both ways, CPU 4x) — a ZIP typed as soon as
 * the input shows and submitted before, during or after the island starts reaches step 2, typing
 * across start-up loses no character, no answer is in any request URL — the page's look without
 * JavaScript, and one walk's events, consent records and phone leases with JavaScript on and off.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { PROGRESS_ANIMATION_DELAY_MS, PROGRESS_ANIMATION_MS } from '../../engine/constants'
import { QUOTE_FIELDS } from '../../engine/phone/quote-fields'
import type { LeadStory } from '../../server/store/lead-store'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../fixtures/marketplace-simulator/simulator'
import { loadSnapshot } from '../model/funnel-catalogue'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'
import {
  answerStep,
  completeFunnel,
  completeFunnelWithoutJs,
  currentStepName,
  waitForLive,
} from './funnel-driver'
import { opsGet } from './ops-client'
import { newDataDir, type ServerProcess, startServerProcess } from './server-process'

const port = inject('port')
const funnel = loadSnapshot().funnels.get('quiz-otc')!
const BASE = '/quiz/otc'
const START = brandUrl('m10', port, BASE)
const ZIP = '90210'
/** Generous: a throttled page load on a shared 2-core machine. */
const SLOW_MS = 90_000

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

async function context(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const ctx = await browser.newContext(options)
  await routeThirdParties(ctx)
  return ctx
}

const stepShown = (tab: Page, name: string, timeout = 15_000) =>
  tab.waitForFunction((n) => document.querySelector('.funnel-form')?.getAttribute('data-step') === n, name, {
    timeout,
  })

describe('the form island', () => {
  it('checks answers as typed, changes steps in place with the progress animation, and follows Back', async () => {
    const ctx = await context()
    const { page: tab, pageErrors } = await newPage(ctx)
    const documents: string[] = []
    tab.on('request', (r) => r.resourceType() === 'document' && documents.push(`${r.method()} ${r.url()}`))
    await tab.goto(START)
    await waitForLive(tab)
    const zip = tab.locator('#field-zipcode')
    await zip.fill('12a3')
    expect(await zip.inputValue()).toBe('123')
    await zip.blur()
    await expect.poll(() => tab.locator('#field-zipcode-error').textContent()).toMatch(/5-digit/)
    expect(await zip.getAttribute('aria-invalid')).toBe('true')
    // The message goes as soon as the answer is right, before any submit.
    await zip.fill(ZIP)
    await expect.poll(() => tab.locator('#field-zipcode-error').count()).toBe(0)
    expect(await zip.getAttribute('aria-invalid')).toBeNull()
    const fill = tab.locator('.funnel-progress-fill')
    const timing = await fill.evaluate((el) => {
      const s = getComputedStyle(el)
      return { duration: s.transitionDuration, delay: s.transitionDelay }
    })
    expect(timing).toEqual({
      duration: `${PROGRESS_ANIMATION_MS / 1000}s`,
      delay: `${PROGRESS_ANIMATION_DELAY_MS / 1000}s`,
    })
    const bar = await fill.elementHandle()
    await tab.locator('.funnel-submit').click()
    await stepShown(tab, funnel.steps[1].name)
    await tab.waitForURL((u) => u.pathname === `${BASE}/${funnel.steps[1].name}`)
    // The same bar element, animated to step 2 of n (a new element would jump there).
    expect(await bar!.evaluate((el) => el.isConnected && (el as HTMLElement).style.transform)).toBe(
      `scaleX(${2 / funnel.steps.length})`,
    )
    expect(await tab.getByTestId('funnel-step-count').textContent()).toContain('2')
    expect(await tab.evaluate(() => document.activeElement?.id)).toBe('funnel-question')
    await tab.goBack()
    await stepShown(tab, funnel.steps[0].name)
    // One page load: every step change was in place.
    expect(documents).toEqual([`GET ${START}`])
    expect(pageErrors).toEqual([])
    await ctx.close()
  })

  it('masks a phone number as it is typed', async () => {
    const ctx = await context()
    const { page: tab } = await newPage(ctx)
    await tab.goto(START)
    await waitForLive(tab)
    const phoneStep = funnel.steps.find((s) => s.fields.some((f) => f.kind === 'tel'))!
    while ((await currentStepName(tab)) !== phoneStep.name) {
      const name = await currentStepName(tab)
      await answerStep(tab, funnel)
      await tab.waitForFunction(
        (n) => document.querySelector('.funnel-form')?.getAttribute('data-step') !== n,
        name,
      )
    }
    const tel = phoneStep.fields.find((f) => f.kind === 'tel')!
    await tab.locator(`#field-${tel.name}`).pressSequentially('5551234567')
    expect(await tab.inputValue(`#field-${tel.name}`)).toBe('(555) 123-4567')
    await ctx.close()
  })
})

/** A phone on a slow network: 400 ms latency, 50 KB/s both ways, CPU 4x slower (Chromium CDP). */
async function slowPhone(ctx: BrowserContext): Promise<Page> {
  const tab = await ctx.newPage()
  const cdp = await ctx.newCDPSession(tab)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 400,
    downloadThroughput: 50 * 1024,
    uploadThroughput: 50 * 1024,
  })
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  return tab
}

/**
 * Holds the page's own scripts until the returned function is called, so "before start-up" is a
 * moment the test makes, not one a busy machine may skip (the HTML and CSS still load throttled).
 */
async function holdScripts(ctx: BrowserContext): Promise<() => void> {
  let release = () => {}
  const gate = new Promise<void>((r) => {
    release = r
  })
  await ctx.route(
    (url) => url.port === String(port) && url.pathname.endsWith('.js'),
    async (route) => {
      await gate
      await route.fallback()
    },
  )
  return release
}

const started = (tab: Page) =>
  tab.evaluate(() => ({
    island: document.querySelector('.funnel')?.getAttribute('data-live') === 'true',
    runtime: document.documentElement.dataset.hydrated === 'true',
  }))

describe('start-up on a slow phone (400 ms, 50 KB/s, CPU 4x)', () => {
  it.each(['before', 'during', 'after'] as const)(
    'a ZIP typed as soon as the input shows and submitted %s start-up reaches step 2 with it',
    async (moment) => {
      const ctx = await context({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })
      const tab = await slowPhone(ctx)
      const release = moment === 'before' ? await holdScripts(ctx) : () => {}
      const urls: string[] = []
      const posted: string[] = []
      tab.on('request', (r) => {
        urls.push(r.url())
        if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith(BASE))
          posted.push(r.postData() ?? '')
      })
      await tab.goto(START, { waitUntil: 'commit', timeout: SLOW_MS })
      const zip = tab.locator('#field-zipcode')
      await zip.waitFor({ state: 'visible', timeout: SLOW_MS })
      await zip.pressSequentially(ZIP)
      if (moment === 'during') await waitForLive(tab)
      if (moment === 'after')
        await tab.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', undefined, {
          timeout: SLOW_MS,
        })
      const at = await started(tab)
      if (moment === 'before') expect(at).toEqual({ island: false, runtime: false })
      if (moment === 'during') expect(at.island).toBe(true)
      expect(await zip.inputValue()).toBe(ZIP)
      await zip.press('Enter')
      release()
      await stepShown(tab, funnel.steps[1].name, SLOW_MS)
      // The server got the ZIP (it moves on only with a valid one), once, in the body.
      expect(posted).toHaveLength(1)
      expect(new URLSearchParams(posted[0]).get('zipcode')).toBe(ZIP)
      for (const url of urls) expect(decodeURIComponent(url)).not.toContain(ZIP)
      await ctx.close()
    },
    SLOW_MS * 3,
  )

  it(
    'typing across start-up loses no character',
    async () => {
      const ctx = await context({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })
      const tab = await slowPhone(ctx)
      const release = await holdScripts(ctx)
      await tab.goto(START, { waitUntil: 'commit', timeout: SLOW_MS })
      const zip = tab.locator('#field-zipcode')
      await zip.waitFor({ state: 'visible', timeout: SLOW_MS })
      const moments: string[] = []
      // A character every 50 ms from the moment the input shows until the runtime runs, the field
      // emptied and typed again each time it is full: every keystroke lands, whatever starts meanwhile.
      let typed = ''
      for (let i = 0; ; i++) {
        const digit = String(i % 10)
        if (typed.length === 5) {
          await zip.press('Control+A')
          await zip.press('Backspace')
          typed = ''
        }
        await zip.press(digit)
        typed += digit
        expect(await zip.inputValue()).toBe(typed)
        const at = await started(tab)
        moments.push(at.runtime ? 'after' : at.island ? 'during' : 'before')
        // The scripts come once the first keystroke has landed without them.
        if (moments.length === 1) release()
        if (at.runtime && typed.length === 5) break
        await tab.waitForTimeout(50)
      }
      // The typing spanned the start-up: keystrokes before the island attached and after the runtime
      // ran (in between too when a keystroke fell there: the window is short, so it is not required).
      expect(moments[0]).toBe('before')
      expect(moments.at(-1)).toBe('after')
      await ctx.close()
    },
    SLOW_MS * 3,
  )
})

describe('without JavaScript', () => {
  it('a step looks as it does with JavaScript (no script-only control shows)', async () => {
    for (const width of [375, 1280]) {
      const shots: Buffer[] = []
      for (const javaScriptEnabled of [true, false]) {
        const ctx = await context({ viewport: { width, height: 900 }, javaScriptEnabled })
        const tab = await ctx.newPage()
        await tab.goto(START)
        if (javaScriptEnabled)
          await tab.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
        // The header's phone number is per visitor (drawn after start-up): not part of the form's look.
        const form = tab.locator('[data-island="form"]')
        shots.push(await form.screenshot({ animations: 'disabled' }))
        await ctx.close()
      }
      expect(shots[0]!.equals(shots[1]!), `the form at ${width} px differs with and without JavaScript`).toBe(
        true,
      )
    }
  })
})

/** A server of our own pointed at the marketplace simulator: a walk leases numbers (0221, 0235). */
let leasing: { sim: MarketplaceSimulator; server: ServerProcess; dataDir: string } | undefined

async function leadOf(key: string): Promise<LeadStory> {
  const { dataDir } = leasing!
  const r = await opsGet(dataDir, `/api/_ops/leads?key=${encodeURIComponent(key)}`)
  expect(r.status).toBe(200)
  return r.json as LeadStory
}

/**
 * A walk's record, per kind in the story's order: its events on the funnel page and its consent
 * records, in the order they were stored (events by time, then their `seq`: migration 0019), and its
 * phone leases. The kinds are compared apart: a step's events and its consent record are stamped by
 * different clocks (the event's client time, the record's arrival).
 */
function walkRecord(story: LeadStory, pageKey: string): Record<'events' | 'consents' | 'leases', string[]> {
  return {
    events: story.entries.flatMap((e) => {
      if (e.kind !== 'event') return []
      const props = (e.event.body as { properties?: { page?: { name?: string }; stepName?: string } })
        .properties
      return props?.page?.name === pageKey
        ? [`${e.event.type} ${e.event.name}${props.stepName ? ` ${props.stepName}` : ''}`]
        : []
    }),
    consents: story.entries.flatMap((e) => (e.kind === 'consent' ? [`consent ${e.record.step_name}`] : [])),
    leases: story.entries.flatMap((e) =>
      e.kind === 'marketplace' && e.call.kind === 'get-phone'
        ? [`phone lease ${e.call.ok ? 'ok' : 'failed'}`]
        : [],
    ),
  }
}

describe('one walk, JavaScript on and off', () => {
  beforeAll(async () => {
    const sim = await startMarketplaceSimulator()
    const dataDir = newDataDir('fw-island-walk-')
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      MEDIAALPHA_BASE_URL: sim.url,
      MEDIAALPHA_RATE_LIMIT: '1000',
    })
    leasing = { sim, server, dataDir }
  }, 180_000)
  afterAll(async () => {
    await leasing?.server.stop()
    await leasing?.sim.close()
  })

  it('records the same events, consent records and phone leases, in the same order', async () => {
    const page = loadSnapshot().pages.get('quiz-otc')!
    const start = brandUrl('m10', leasing!.server.port, BASE)
    const records: ReturnType<typeof walkRecord>[] = []
    for (const javaScriptEnabled of [true, false]) {
      const ctx = await context({ javaScriptEnabled })
      const tab = await ctx.newPage()
      await tab.goto(start)
      const visited = javaScriptEnabled
        ? await completeFunnel(tab, funnel, BASE)
        : await completeFunnelWithoutJs(tab, funnel, BASE)
      expect(visited.length).toBeGreaterThan(2)
      // The thank-you page has started (with JavaScript, its phone line too: it leases nothing, 0233).
      if (javaScriptEnabled)
        await tab.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
      const anonymousId = (await ctx.cookies()).find((c) => c.name === 'fw_anon')?.value
      expect(anonymousId).toBeTruthy()
      const story = await leadOf(anonymousId!)
      records.push(walkRecord(story, page.key))
      await ctx.close()
    }
    const [on, off] = records
    expect(off.consents).toHaveLength(1)
    expect(off.events.filter((r) => r.startsWith('track formStepSubmitted'))).toHaveLength(
      funnel.steps.length,
    )
    // The server leases at the first answer and at each posted quote change (0235), on both paths.
    const quote = (s: (typeof funnel.steps)[number]) =>
      s.fields.some((f) => (QUOTE_FIELDS as readonly string[]).includes(f.name))
    const leased = funnel.steps.filter((s, i) => i === 0 || quote(s)).length
    expect(off.leases).toEqual(Array.from({ length: leased }, () => 'phone lease ok'))
    expect(on).toEqual(off)
  }, 240_000)
})
