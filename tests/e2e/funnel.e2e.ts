/**
 * Funnel pages in Chromium at desktop size: the skip path reaches the destination once per distinct
 * funnel (the same steps, texts and destination behave the same on every page that runs them);
 * redirects, query strings, history, messages and events on /quiz/otc. Every funnel page's complete
 * path is walked on a phone in first-screen.e2e.ts; every funnel's paths, skips included, are replayed
 * on the machine in tests/model/funnel.model.test.ts.
 */
import type { Browser, BrowserContext } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { FORM_STEP_SUBMITTED } from '../../engine/funnel/funnel-deps'
import { validValue } from '../../engine/funnel/sample-values'
import { emptiedValues } from '../../engine/funnel/validate-field'
import type { PageEntry, ResolvedFunnel } from '../../engine/snapshot/types'
import { main, parseArgs, pathsReport } from '../../tools/paths'
import { loadSnapshot } from '../model/funnel-catalogue'
import { seriousViolations } from './axe'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'
import {
  answerStep,
  completeFunnel,
  completeFunnelWithoutJs,
  currentStepName,
  exitsOf,
  funnelBase,
  funnelPages,
  recordFunnelEvents,
  typedAnswers,
  waitForLive,
} from './funnel-driver'
import { opsClient } from './ops-client'

const port = inject('port')
let browser: Browser
let context: BrowserContext

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
async function freshContext(opts: { javaScriptEnabled?: boolean } = {}) {
  context = await browser.newContext(opts)
  await routeThirdParties(context)
  // history.length when the document starts, before any script of ours could add or replace entries.
  await context.addInitScript(() => {
    ;(window as unknown as { __historyAtLoad: number }).__historyAtLoad = history.length
  })
  return context
}

const historyAtLoad = (tab: import('playwright-core').Page) =>
  tab.evaluate(() => (window as unknown as { __historyAtLoad: number }).__historyAtLoad)

const pages = funnelPages()

/** What a walk in the browser depends on: the steps (fields, actions, skippable), the texts, the destination. */
const shapeOf = ({ funnel, page }: { funnel: ResolvedFunnel; page: PageEntry }) =>
  JSON.stringify({ steps: funnel.steps, text: funnel.text, destination: page.destination })
/** The first page of each distinct funnel shape. */
const distinct = pages.filter((p, i) => pages.findIndex((q) => shapeOf(q) === shapeOf(p)) === i)

it('finds funnel pages to run', () => expect(distinct.length).toBeGreaterThan(0))

for (const { funnel, page } of distinct) {
  const brand = page.brands[0]
  const base = funnelBase(page)
  const alike = pages.filter((p) => p.funnel.id !== funnel.id && shapeOf(p) === shapeOf({ funnel, page }))
  const same = alike.length ? ` (as ${alike.map((p) => p.funnel.id).join(', ')})` : ''
  describe(`${brand} ${base} (${funnel.id})${same}`, () => {
    it('completes the skip path to the destination', async () => {
      const ctx = await freshContext()
      const { page: tab, pageErrors } = await newPage(ctx)
      const events = await recordFunnelEvents(tab)
      await tab.goto(brandUrl(brand, port, base))
      const visited = await completeFunnel(tab, funnel, base, { skip: true })
      expect(exitsOf(funnel, page)).toContain(new URL(tab.url()).pathname)
      // Every step on the way sent its submit event; a skipped step's carries its fields emptied.
      const submitted = events.filter((e) => e.event === FORM_STEP_SUBMITTED)
      expect(submitted.map((e) => e.properties?.stepName)).toEqual(visited)
      const skipped = funnel.steps.filter((s) => s.skippable && visited.includes(s.name))
      for (const step of skipped) {
        const e = submitted.find((x) => x.properties?.stepName === step.name)
        expect(e?.properties?.data).toEqual(emptiedValues(step.fields))
      }
      expect(pageErrors).toEqual([])
      await ctx.close()
    })
  })
}

const otc = pages.find(({ page }) => funnelBase(page) === '/quiz/otc') ?? pages[0]

describe(`acceptance on ${otc ? funnelBase(otc.page) : 'a funnel page'}`, () => {
  const { funnel, page } = otc ?? ({} as { funnel: ResolvedFunnel; page: PageEntry })
  const base = otc ? funnelBase(page) : ''
  const brand = otc ? page.brands[0] : ''
  const first = otc ? funnel.steps[0].name : ''

  for (const start of ['', '/nonsense']) {
    it(`${start || '(no step)'} lands on the first step, keeping ?utm_source=x and replacing history`, async () => {
      const ctx = await freshContext()
      const { page: tab, pageErrors, consoleErrors } = await newPage(ctx)
      await tab.goto(brandUrl(brand, port, `${base}${start}?utm_source=x`))
      await waitForLive(tab)
      await tab.waitForURL((u) => u.pathname === `${base}/${first}`)
      expect(new URL(tab.url()).search).toBe('?utm_source=x')
      expect(await tab.evaluate(() => history.length)).toBe(await historyAtLoad(tab))
      expect(await currentStepName(tab)).toBe(first)
      expect(pageErrors).toEqual([])
      expect(consoleErrors.filter((m) => /hydrat/i.test(m))).toEqual([])
      await ctx.close()
    })
  }

  it('a valid submit moves on without the query string; events carry the spec fields; back returns', async () => {
    const ctx = await freshContext()
    const { page: tab, consoleErrors, pageErrors } = await newPage(ctx)
    const events = await recordFunnelEvents(tab)
    await tab.goto(brandUrl(brand, port, `${base}/${first}?utm_source=x`))
    await waitForLive(tab)
    await expect.poll(() => events.length).toBeGreaterThan(0)
    expect(events[0]).toEqual({
      kind: 'pageView',
      page: { name: page.key, template: page.template, stepName: first },
    })
    await answerStep(tab, funnel)
    const second = funnel.steps[1].name
    await tab.waitForURL((u) => u.pathname === `${base}/${second}`)
    expect(new URL(tab.url()).search).toBe('')
    expect(await tab.evaluate(() => history.length)).toBe((await historyAtLoad(tab)) + 1)
    expect(await tab.locator('[data-testid="funnel-step-count"]').textContent()).toBe(
      `Step 2 of ${funnel.steps.length}`,
    )
    const submitted = events.find((e) => e.event === FORM_STEP_SUBMITTED)!
    expect(submitted.properties).toMatchObject({
      formVersion: funnel.formVersion,
      stepName: first,
      stepNumber: 1,
    })
    expect(Object.keys(submitted.properties!.data as object)).toEqual(
      funnel.steps[0].fields.map((f) => f.name),
    )
    await expect.poll(() => events.at(-1)?.page?.stepName).toBe(second)
    // The browser's back button returns to the first step, answers kept.
    await tab.goBack()
    await tab.waitForURL((u) => u.pathname === `${base}/${first}`)
    await expect.poll(() => currentStepName(tab)).toBe(first)
    // A reload prefills from the buckets in localStorage.
    await tab.reload()
    await waitForLive(tab)
    const f = funnel.steps[0].fields.find((x) => !['yes-no', 'choice'].includes(x.kind))
    if (f) await expect.poll(() => tab.inputValue(`#field-${f.name}`)).not.toBe('')
    // Prefill happens after hydration: no mismatch is reported.
    expect(consoleErrors.filter((m) => /hydrat/i.test(m))).toEqual([])
    expect(pageErrors).toEqual([])
    await ctx.close()
  })

  it('invalid input shows a human message next to the field and does not advance', async () => {
    const ctx = await freshContext()
    const { page: tab } = await newPage(ctx)
    await tab.goto(brandUrl(brand, port, `${base}/${first}`))
    await waitForLive(tab)
    const zip = funnel.steps[0].fields.find((f) => f.kind === 'zip')
    if (zip) await tab.fill(`#field-${zip.name}`, '123')
    const before = tab.url()
    if (await tab.locator('.funnel-submit').count()) await tab.locator('.funnel-submit').click()
    const error = tab.locator('.field-error').first()
    await expect.poll(() => error.isVisible()).toBe(true)
    if (zip) {
      expect(await error.textContent()).toBe('Enter a 5-digit ZIP code')
      const input = tab.locator(`#field-${zip.name}`)
      expect(await input.getAttribute('aria-invalid')).toBe('true')
      expect(await input.getAttribute('aria-describedby')).toContain(`field-${zip.name}-error`)
      expect(await input.getAttribute('inputmode')).toBe('numeric')
      expect(await input.getAttribute('autocomplete')).toBe('postal-code')
    }
    await expect.poll(() => tab.locator('[role="status"][aria-live]').textContent()).toContain('Enter')
    expect(tab.url()).toBe(before)
    await ctx.close()
  })

  it('has no serious accessibility problems, with messages shown', async () => {
    const ctx = await freshContext()
    const { page: tab } = await newPage(ctx)
    const phoneStep = funnel.steps.find((s) => s.fields.some((f) => f.kind === 'tel'))
    for (const step of [funnel.steps[0], phoneStep ?? funnel.steps[1]].filter(Boolean)) {
      await tab.goto(brandUrl(brand, port, `${base}/${step.name}`))
      await waitForLive(tab)
      if (await tab.locator('.funnel-submit').count()) await tab.locator('.funnel-submit').click()
      expect((await seriousViolations(tab, { include: '.funnel' })).map((v) => `${step.name}: ${v}`)).toEqual(
        [],
      )
    }
    await ctx.close()
  })

  it('a phone step masks typing and shows the TCPA consent written for the brand', async () => {
    const phoneStep = funnel.steps.find((s) => s.fields.some((f) => f.kind === 'tel'))
    if (!phoneStep) throw new Error(`${funnel.id} has no step asking for a phone number`)
    const phone = phoneStep.fields.find((f) => f.kind === 'tel')!
    const ctx = await freshContext()
    const { page: tab } = await newPage(ctx)
    await tab.goto(brandUrl(brand, port, `${base}/${phoneStep.name}`))
    await waitForLive(tab)
    await tab.locator(`#field-${phone.name}`).pressSequentially('5552013344')
    expect(await tab.inputValue(`#field-${phone.name}`)).toBe('(555) 201-3344')
    expect(await tab.locator(`#field-${phone.name}`).getAttribute('autocomplete')).toBe('tel-national')
    const consent = await tab.locator('[data-testid="tcpa-consent"]').textContent()
    const owner = loadSnapshot().brands.get(brand)!.ownerLegalName
    expect(consent).toContain(owner)
    expect(consent).toMatch(/licensed (insurance )?agents may contact me/)
    expect(consent).toContain('Consent is not a condition of purchase')
    await ctx.close()
  })

  it('Enter before hydration posts the step: the visitor lands on the next step, the answer stored, in no URL', async () => {
    const ctx = await freshContext()
    // The page's scripts are held back: the form is on screen but not hydrated.
    let release = () => {}
    const held = new Promise<void>((r) => {
      release = r
    })
    await ctx.route(/\/assets\/.*\.js$/, async (route) => {
      await held
      await route.continue()
    })
    const { page: tab } = await newPage(ctx)
    const urls: string[] = []
    tab.on('request', (r) => urls.push(r.url()))
    await tab.goto(brandUrl(brand, port, `${base}/${first}?utm_source=early`), { waitUntil: 'commit' })
    const field = funnel.steps[0].fields[0]
    const answer = String(validValue(field))
    await tab.fill(`#field-${field.name}`, answer)
    await tab.press(`#field-${field.name}`, 'Enter')
    const second = funnel.steps[1].name
    await tab.waitForURL((u) => u.pathname === `${base}/${second}`, { waitUntil: 'commit' })
    release()
    await waitForLive(tab)
    expect(await currentStepName(tab)).toBe(second)
    expect(new URL(tab.url()).search).toBe('?utm_source=early')
    for (const url of urls) expect(decodeURIComponent(url)).not.toContain(answer)
    const stored = (await opsClient(inject('dataDir'), port).latestEvents(200)).find(
      (e) =>
        e.name === FORM_STEP_SUBMITTED &&
        (e.body.properties as Record<string, unknown>).serverSide === true &&
        (e.body.properties as { urlParams?: { utm_source?: string } }).urlParams?.utm_source === 'early',
    )
    expect(stored).toBeDefined()
    expect((stored!.body.properties as { data?: unknown }).data).toEqual({ [field.name]: answer })
    await ctx.close()
  })

  it('without JavaScript an invalid answer comes back at its field with the value kept, then the step posts on', async () => {
    const ctx = await freshContext({ javaScriptEnabled: false })
    const { page: tab } = await newPage(ctx)
    await tab.goto(brandUrl(brand, port, `${base}/${first}?utm_source=x`))
    const step = funnel.steps[0]
    const field = step.fields[0]
    await tab.fill(`#field-${field.name}`, '12')
    await tab.locator('.funnel-submit').click()
    await expect.poll(() => tab.locator(`#field-${field.name}-error`).isVisible()).toBe(true)
    expect(await tab.inputValue(`#field-${field.name}`)).toBe('12')
    expect(new URL(tab.url()).search).toBe('?utm_source=x')
    await tab.fill(`#field-${field.name}`, String(validValue(field)))
    await tab.locator('.funnel-submit').click()
    await tab.waitForURL((u) => u.pathname === `${base}/${funnel.steps[1].name}`)
    expect(new URL(tab.url()).search).toBe('?utm_source=x')
    await ctx.close()
  })
})

/** One page of every funnel of the catalogue (acceptance 1 of issue 29 names every funnel). */
const everyFunnel = pages.filter((p, i) => pages.findIndex((q) => q.funnel.id === p.funnel.id) === i)

describe('without JavaScript', () => {
  it('covers every funnel of the catalogue', () =>
    expect(new Set(everyFunnel.map((p) => p.funnel.id)).size).toBe(
      new Set(pages.map((p) => p.funnel.id)).size,
    ))
  for (const { funnel, page } of everyFunnel) {
    const brand = page.brands[0]
    const base = funnelBase(page)
    it(`${brand} ${base} (${funnel.id}) is completed to its destination, wrong answers shown at their fields with the values kept; no request URL holds an answer`, async () => {
      const ctx = await freshContext({ javaScriptEnabled: false })
      const { page: tab } = await newPage(ctx)
      const urls: string[] = []
      tab.on('request', (r) => urls.push(r.url()))
      await tab.goto(brandUrl(brand, port, base))
      const visited = await completeFunnelWithoutJs(tab, funnel, base, { invalidFirst: true })
      expect(visited.length).toBeGreaterThan(0)
      expect(exitsOf(funnel, page)).toContain(new URL(tab.url()).pathname)
      for (const answer of typedAnswers(funnel))
        for (const url of urls) {
          expect(url).not.toContain(encodeURIComponent(answer))
          expect(decodeURIComponent(url)).not.toContain(answer)
        }
      await ctx.close()
    })
  }
})

const tokenPage = pages.find(({ page }) => page.aliases?.some((a) => a.includes('{token}')))

describe.runIf(tokenPage)(`token variant route ${tokenPage ? funnelBase(tokenPage.page) : ''}`, () => {
  const { funnel, page } = tokenPage ?? ({} as { funnel: ResolvedFunnel; page: PageEntry })
  const base = tokenPage ? funnelBase(page) : ''
  const brand = tokenPage ? page.brands[0] : ''
  const [first, second] = tokenPage ? funnel.steps.map((s) => s.name) : []
  const token = 'tok3n-Abc123xyz789'

  it('a token with no step goes to <token>/<first step> keeping the query; advancing keeps the token', async () => {
    const ctx = await freshContext()
    const { page: tab, pageErrors } = await newPage(ctx)
    await tab.goto(brandUrl(brand, port, `${base}/${token}?utm_source=x`))
    await waitForLive(tab)
    await tab.waitForURL((u) => u.pathname === `${base}/${token}/${first}`)
    expect(new URL(tab.url()).search).toBe('?utm_source=x')
    await answerStep(tab, funnel)
    await tab.waitForURL((u) => u.pathname === `${base}/${token}/${second}`)
    expect(new URL(tab.url()).search).toBe('')
    expect(pageErrors).toEqual([])
    await ctx.close()
  })

  it('a single segment that is a step name is that step, not a token', async () => {
    const ctx = await freshContext()
    const { page: tab } = await newPage(ctx)
    await tab.goto(brandUrl(brand, port, `${base}/${second}`))
    await waitForLive(tab)
    expect(await currentStepName(tab)).toBe(second)
    expect(new URL(tab.url()).pathname).toBe(`${base}/${second}`)
    await ctx.close()
  })
})

describe('npm run paths --replay walks a model path in Chromium', () => {
  const listed = () =>
    JSON.parse(pathsReport(parseArgs(['quiz-otc', '--json']))).paths as { n: number; line: string }[]

  it('a complete path with a wrong answer and a "no" ends on the thank-you page; a history path steps back', async () => {
    const paths = listed()
    const complete = paths.find((p) => /\(invalid\).*\(no\).*→ \/thank-you$/.test(p.line))!
    const history = paths.find((p) => p.line.includes('browser back'))!
    for (const { n, end } of [
      { n: complete.n, end: /^ends on \/thank-you \(/ },
      { n: history.n, end: /^ends on step \w+ \(http:\/\/m10\.localhost:\d+\/quiz\/otc\/\w+/ },
    ]) {
      const out: string[] = []
      const code = await main(['quiz-otc', '--replay', String(n), '--base', brandUrl('m10', port, '')], (l) =>
        out.push(l),
      )
      expect(code, out.join('\n')).toBe(0)
      expect(out[0]).toMatch(new RegExp(`^replaying quiz-otc path ${n} in Chromium: `))
      expect(out.at(-1)).toMatch(end)
    }
  })
})
