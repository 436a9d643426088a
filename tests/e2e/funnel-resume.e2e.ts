/**
 * A visitor never loses an answer (issue 29; docs/decisions/0220–0222), in Chromium against a server
 * of its own that serves a copy of definitions/ as files (so a test can publish a change):
 * - one anonymous id on both paths: JavaScript on for step 1, off for step 2, on again — the answers
 *   of each path are there on the other, and the lead's story is one story;
 * - without JavaScript the lead's story has the same parts as with it (steps, data, consent with its
 *   hash, the phone lease);
 * - a returning visitor lands on the first unanswered step, also after a published change inserted a
 *   step before the third (acceptance 3);
 * - a resume link continues in a fresh browser; an altered or expired one starts step 1 with a short
 *   message, in Spanish on a Spanish funnel (acceptance 4).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DateTime } from 'luxon'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANONYMOUS_ID_COOKIE } from '../../engine/constants'
import { formVersionBucketKey, SHARED_BUCKET_KEY } from '../../engine/funnel/buckets'
import { ResumeLinks } from '../../server/render/funnel-resume'
import type { LeadStory } from '../../server/store/lead-store'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../fixtures/marketplace-simulator/simulator'
import { funnelCatalogue } from '../model/funnel-catalogue'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'
import {
  answerStep,
  completeFunnel,
  completeFunnelWithoutJs,
  currentStepName,
  waitForLive,
} from './funnel-driver'
import { httpGet } from './http'
import { newDataDir, PROJECT_ROOT, type ServerProcess, startServerProcess } from './server-process'

const LA = 'America/Los_Angeles'
const TUESDAY_10 = DateTime.fromISO('2026-11-24T10:00', { zone: LA }).toMillis()
const otc = funnelCatalogue().find(({ funnel }) => funnel.id === 'quiz-otc')!.funnel
const es = funnelCatalogue().find(({ funnel }) => funnel.id === 'quiz-medicare-es')!
const BASE = '/quiz/otc'

let sim: MarketplaceSimulator
let server: ServerProcess
let browser: Browser
let definitions: string
let dataDir: string
const contexts: BrowserContext[] = []

beforeAll(async () => {
  sim = await startMarketplaceSimulator()
  sim.setClock(TUESDAY_10)
  definitions = mkdtempSync(join(tmpdir(), 'fw-resume-defs-'))
  cpSync(join(PROJECT_ROOT, 'definitions'), definitions, { recursive: true })
  dataDir = newDataDir()
  server = await startServerProcess(serverEnv())
  browser = await launchBrowser()
}, 180_000)
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {})
  await browser?.close()
  await server?.stop()
  await sim?.close()
  rmSync(definitions, { recursive: true, force: true })
})

const serverEnv = () => ({
  CONTENT_SOURCE: 'worktree',
  DEFINITIONS_DIR: definitions,
  DATA_DIR: dataDir,
  MEDIAALPHA_BASE_URL: sim.url,
  MEDIAALPHA_RATE_LIMIT: '1000',
})

/**
 * Publishes the definitions copy as it is now: the server is started again on them, on the same port
 * and data folder (a production server serves what it started with; the browser's origin stays).
 */
async function publish(): Promise<void> {
  const port = server.port
  await server.stop()
  server = await startServerProcess({ ...serverEnv(), PORT: String(port) })
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>

/** A browser profile: JavaScript on or off, carrying over another's cookies and localStorage (the same browser). */
async function profile(javaScriptEnabled: boolean, storageState?: StorageState): Promise<BrowserContext> {
  const ctx = await browser.newContext({ javaScriptEnabled, storageState, timezoneId: LA })
  contexts.push(ctx)
  await routeThirdParties(ctx)
  return ctx
}

const url = (path: string, brand = 'm10') => brandUrl(brand, server.port, path)

async function bucketOf(page: Page, formVersion: string) {
  return page.evaluate(
    ([a, b]) => ({
      version: JSON.parse(localStorage.getItem(a) ?? '{}') as Record<string, unknown>,
      shared: JSON.parse(localStorage.getItem(b) ?? '{}') as Record<string, unknown>,
      anonymousId: localStorage.getItem('anonymousId'),
    }),
    [formVersionBucketKey(formVersion), SHARED_BUCKET_KEY],
  )
}

async function cookieId(ctx: BrowserContext): Promise<string | undefined> {
  return (await ctx.cookies()).find((c) => c.name === ANONYMOUS_ID_COOKIE)?.value
}

async function lead(key: string): Promise<LeadStory> {
  const { token } = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { token: string }
  const r = await fetch(`http://127.0.0.1:${server.port}/api/_ops/leads?key=${encodeURIComponent(key)}`, {
    headers: { 'x-ops-token': token },
  })
  return (await r.json()) as LeadStory
}

/** Whether the served funnel has the inserted step (the server reloaded the definitions). */
const showsAddress = async () =>
  (await httpGet(server.port, `${BASE}/address`, `m10.localhost:${server.port}`)).body.includes(
    'data-step="address"',
  )

/** Answers the step on screen with JavaScript on and waits for the next one to be live. */
async function answerLive(page: Page): Promise<void> {
  await waitForLive(page)
  const before = page.url()
  await answerStep(page, otc)
  await page.waitForURL((u) => u.toString() !== before)
}

/** The parts of a lead's story, as kinds of entries: page views, step submits, consent, lease. */
function storyShape(story: LeadStory) {
  const events = story.entries.flatMap((e) => (e.kind === 'event' ? [e.event] : []))
  return {
    steps: events
      .filter((e) => e.name === 'formStepSubmitted')
      .map((e) => (e.body as unknown as { properties: { stepName: string } }).properties.stepName),
    data: events
      .filter((e) => e.name === 'formStepSubmitted')
      .map((e) =>
        Object.keys((e.body as unknown as { properties: { data: object } }).properties.data).sort(),
      ),
    consent: story.entries
      .filter((e) => e.kind === 'consent')
      .map((e) =>
        e.kind === 'consent'
          ? { step: e.record.step_name, hashed: /^[0-9a-f]{64}$/.test(e.record.text_sha256) }
          : null,
      ),
    leased: story.entries.some((e) => e.kind === 'marketplace' && e.call.kind === 'get-phone' && e.call.ok),
  }
}

describe('one anonymous id on both paths', () => {
  it('JavaScript on for step 1, off for step 2, on again: each path sees the other’s answers; one lead', async () => {
    const on = await profile(true)
    const { page: first } = await newPage(on)
    await first.goto(url(BASE))
    await answerLive(first) // zip, in the browser
    // The browser claimed its id with the server (its first answer sent): the cookie names it.
    const { anonymousId } = await bucketOf(first, otc.formVersion)
    await expect.poll(() => cookieId(on)).toBe(anonymousId)
    await first.waitForLoadState('networkidle')

    const off = await profile(false, await on.storageState())
    const { page: second } = await newPage(off)
    await second.goto(url(`${BASE}/medicare`))
    const before = second.url()
    await answerStep(second, otc) // medicare, posted
    await second.waitForURL((u) => u.toString() !== before)
    expect(new URL(second.url()).pathname).toBe(`${BASE}/medicaid`)
    expect(await cookieId(off)).toBe(anonymousId)

    const again = await profile(true, await off.storageState())
    const { page: third } = await newPage(again)
    await third.goto(url(`${BASE}/medicaid`))
    await waitForLive(third)
    // The hydrated form has the posted answer, and the server had the browser's.
    expect((await bucketOf(third, otc.formVersion)).version).toMatchObject({
      zipcode: '90210',
      haveMedicare: true,
    })
    await completeFunnel(third, otc, BASE)
    await third.waitForURL((u) => u.pathname === '/thank-you')

    await expect.poll(async () => storyShape(await lead(anonymousId!)).leased, { timeout: 15_000 }).toBe(true)
    const story = await lead(anonymousId!)
    expect(story.anonymousIds).toEqual([anonymousId])
    expect(storyShape(story).steps).toEqual(otc.steps.map((s) => s.name))
  })

  it('JavaScript off for step 1, on for step 2: the browser takes the server’s id and answers', async () => {
    const off = await profile(false)
    const { page: first } = await newPage(off)
    await first.goto(url(`${BASE}/zip`))
    await first.fill('#field-zipcode', '60601')
    await first.locator('.funnel-submit').click()
    await first.waitForURL((u) => u.pathname === `${BASE}/medicare`)
    const serverId = await cookieId(off)
    expect(serverId).toBeTruthy()

    const on = await profile(true, await off.storageState())
    const { page: second } = await newPage(on)
    await second.goto(url(`${BASE}/medicare`))
    await waitForLive(second)
    const b = await bucketOf(second, otc.formVersion)
    expect(b.anonymousId).toBe(serverId)
    expect(b.version).toMatchObject({ zipcode: '60601' })
    // Back on step 1 the hydrated form shows the posted ZIP code.
    await second.getByRole('button', { name: otc.text.funnel.back }).click()
    await second.waitForURL((u) => u.pathname === `${BASE}/zip`)
    expect(await second.inputValue('#field-zipcode')).toBe('60601')
  })

  it('without JavaScript the lead’s story has the same parts as with it: steps, data, consent with its hash, lease', async () => {
    const withJs = await profile(true)
    const { page: a } = await newPage(withJs)
    await a.goto(url(BASE))
    await completeFunnel(a, otc, BASE)
    await a.waitForURL((u) => u.pathname === '/thank-you')
    const jsId = (await bucketOf(a, otc.formVersion)).anonymousId!

    const noJs = await profile(false)
    const { page: b } = await newPage(noJs)
    await b.goto(url(BASE))
    await completeFunnelWithoutJs(b, otc, BASE)
    expect(new URL(b.url()).pathname).toBe('/thank-you')
    const postId = (await cookieId(noJs))!

    // The browser's events and consent record arrive from its queue; the server's lease a moment later.
    const complete = (s: ReturnType<typeof storyShape>) => s.leased && s.consent.length > 0
    await expect.poll(async () => complete(storyShape(await lead(jsId))), { timeout: 20_000 }).toBe(true)
    await expect.poll(async () => complete(storyShape(await lead(postId))), { timeout: 20_000 }).toBe(true)
    const [js, post] = [storyShape(await lead(jsId)), storyShape(await lead(postId))]
    expect(post).toEqual(js)
    expect(js.consent).toEqual([{ step: 'contact', hashed: true }])
  })
})

describe('resume', () => {
  it('a visitor who answered three steps and left, after a published change inserted a step before the third, lands on it with the answers kept', async () => {
    const ctx = await profile(true)
    const { page } = await newPage(ctx)
    await page.goto(url(BASE))
    for (let i = 0; i < 3; i++) await answerLive(page) // zip, medicare, medicaid
    expect(new URL(page.url()).pathname).toBe(`${BASE}/name`)
    await page.waitForLoadState('networkidle')
    await page.close()

    // Published: a new step before the third, and a new form version.
    const file = join(definitions, 'funnels', 'quiz-otc.json')
    const def = JSON.parse(readFileSync(file, 'utf8')) as { formVersion: string; steps: { step: string }[] }
    def.steps.splice(2, 0, { step: 'address' })
    def.formVersion = `${def.formVersion}-r2`
    writeFileSync(file, `${JSON.stringify(def, null, 2)}\n`)
    await publish()
    expect(await showsAddress()).toBe(true)

    const { page: back } = await newPage(ctx)
    await back.goto(url(BASE))
    await waitForLive(back)
    await back.waitForURL((u) => u.pathname === `${BASE}/address`)
    expect(await currentStepName(back)).toBe('address')
    const kept = await bucketOf(back, def.formVersion)
    expect(kept.shared).toMatchObject({ zipcode: '90210', haveMedicare: true, haveMedicaid: true })
    // Back shows the second step with its answer.
    await back.getByRole('button', { name: otc.text.funnel.back }).click()
    await back.waitForURL((u) => u.pathname === `${BASE}/medicare`)

    // Restore the definitions for the other tests.
    def.steps.splice(2, 1)
    def.formVersion = def.formVersion.replace(/-r2$/, '')
    writeFileSync(file, `${JSON.stringify(def, null, 2)}\n`)
    await publish()
    expect(await showsAddress()).toBe(false)
  })

  it('answers given in another funnel prefill it but do not move a first visit forward', async () => {
    const grocery = funnelCatalogue().find(({ funnel }) => funnel.id === 'quiz-grocery')!.funnel
    const { page } = await newPage(await profile(true))
    await page.goto(url(BASE))
    await answerLive(page) // the ZIP code, in quiz-otc
    await page.goto(url('/quiz/grocery'))
    await waitForLive(page)
    expect(await currentStepName(page)).toBe(grocery.steps[0].name)
    if (grocery.steps[0].fields.some((f) => f.name === 'zipcode'))
      await expect.poll(() => page.inputValue('#field-zipcode')).toBe('90210')
  })

  it('a resume link continues in a fresh browser; altered or expired, step 1 with a short message (in Spanish too)', async () => {
    const ctx = await profile(true)
    const { page } = await newPage(ctx)
    await page.goto(url(BASE))
    await answerLive(page)
    await answerLive(page)
    await page.getByRole('button', { name: otc.text.funnel.continueElsewhere }).click()
    const input = page.locator('.funnel-elsewhere input')
    const link = await input.inputValue()
    expect(link).toMatch(/\/_resume\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    expect(link).not.toContain('90210')
    expect(await page.locator('.funnel-elsewhere a[href^="mailto:"]').getAttribute('href')).toContain(
      encodeURIComponent(link),
    )

    const fresh = await profile(true)
    const { page: other } = await newPage(fresh)
    await other.goto(link)
    await other.waitForURL((u) => u.pathname === `${BASE}/medicaid`)
    await waitForLive(other)
    expect((await bucketOf(other, otc.formVersion)).version).toMatchObject({
      zipcode: '90210',
      haveMedicare: true,
    })

    // The signature's first character: all its 6 bits are the MAC's, so the bytes always change (the
    // last character carries unused bits; its other spellings are refused in signed-token.test.ts).
    const tampered = link.replace(
      /\.(.)([^.]*)$/,
      (_, c: string, rest: string) => `.${c === 'A' ? 'B' : 'A'}${rest}`,
    )
    expect(tampered).not.toBe(link)
    const stranger = await profile(true)
    const { page: third } = await newPage(stranger)
    await third.goto(tampered)
    await third.waitForURL((u) => u.pathname === `${BASE}/zip`)
    await waitForLive(third)
    await expect.poll(() => third.locator('.funnel-notice').textContent()).toBe(otc.text.funnel.resumeExpired)
    expect((await bucketOf(third, otc.formVersion)).version).toEqual({})

    // Expired, on the Spanish funnel: signed with the server's key, an expiry in the past.
    const secret = readFileSync(join(dataDir, 'preview.key'), 'utf8').trim()
    const esBase = es.pages[0].path.replace(/\/\{[^}]+\?\}$/, '')
    const expired = new ResumeLinks(secret).mint(
      'expired-visitor-0001',
      esBase,
      Date.now() - 40 * 24 * 3600_000,
    )
    const { page: fourth } = await newPage(await profile(true))
    await fourth.goto(url(`/_resume/${expired}`, es.pages[0].brands[0]))
    await fourth.waitForURL((u) => u.pathname === `${esBase}/${es.funnel.steps[0].name}`)
    await expect
      .poll(() => fourth.locator('.funnel-notice').textContent())
      .toBe(es.funnel.text.funnel.resumeExpired)
  })
})
