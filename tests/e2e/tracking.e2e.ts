import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { FORM_STEP_SUBMITTED, FUNNEL_COMPLETED } from '../../engine/funnel/funnel-deps'
import type { VisitorRecord } from '../../schemas/generated/visitor-record'
import { funnelCatalogue } from '../model/funnel-catalogue'
import { brandUrl, launchBrowser, newPage, routeThirdParties } from './browser'
import { completeFunnel } from './funnel-driver'
import { opsClient } from './ops-client'

const port = inject('port')
const ops = opsClient(inject('dataDir'))

let browser: Browser
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

async function freshContext(): Promise<BrowserContext> {
  const context = await browser.newContext()
  await routeThirdParties(context)
  return context
}

const visitorOf = (page: Page) => page.evaluate(() => window.__funnelworks?.visitor() ?? null)

async function eventsOfSession(sessionId: string) {
  return (await ops.latestEvents(500)).filter((e) => e.session_id === sessionId)
}

describe('event pipeline in the browser', () => {
  it('a visit with utm_campaign and a 15-character gclid stores a paid pageview with the full context', async () => {
    const context = await freshContext()
    const { page, pageErrors } = await newPage(context)
    await context.addCookies([
      { name: '_ga', value: 'GA1.1.123.456', url: brandUrl('m10', port) },
      { name: '_fbp', value: 'fb.1.123.456', url: brandUrl('m10', port) },
    ])
    const gclid = 'A'.repeat(15)
    const sessionRequest = page.waitForRequest((r) => r.url().endsWith('/api/_auth/session'))
    await page.goto(brandUrl('m10', port, `/?utm_campaign=spring&gclid=${gclid}&utm_source=google`))
    await page.waitForFunction(() => window.__funnelworks?.visitor() != null)
    const visitor = (await visitorOf(page)) as VisitorRecord
    expect(visitor.session.paid).toBe(true)
    await expect
      .poll(async () => (await eventsOfSession(visitor.session.id)).length, { timeout: 10_000 })
      .toBe(1)
    const [row] = await eventsOfSession(visitor.session.id)
    expect(row.type).toBe('page')
    expect(row.paid).toBe(true)
    expect(row.ip).toBe('127.0.0.1')
    const body = row.body
    expect(body).toMatchObject({
      type: 'page',
      name: 'home-m10',
      category: 'home',
      anonymousId: visitor.anonymousId,
    })
    const p = body.properties
    expect(p.session).toMatchObject({ id: visitor.session.id, paid: true })
    expect(p.urlParams).toEqual({ utm_campaign: 'spring', gclid, utm_source: 'google' })
    expect(p.brand).toMatchObject({ id: 'm10', name: 'Medicare10' })
    expect(p.page).toMatchObject({ name: 'home-m10', template: 'home', language: 'english' })
    expect(p.url).toEqual({
      full: brandUrl('m10', port, `/?utm_campaign=spring&gclid=${gclid}&utm_source=google`),
      path: '/',
      query: `utm_campaign=spring&gclid=${gclid}&utm_source=google`,
    })
    expect(p.cookies).toMatchObject({ _ga: 'GA1.1.123.456', _fbp: 'fb.1.123.456' })
    expect(p.userId).toBe(visitor.userId)
    expect(p.userAgent).toMatch(/Chrome/)
    expect('bot' in p).toBe(true)
    // The phone rule the phone feature chose for this visitor rides on the event.
    expect(p.phoneRule).toMatchObject({
      id: expect.any(String),
      placementId: expect.any(String),
      defaultNumber: expect.stringMatching(/^1\d{10}$/),
    })
    // The same event went to the tag manager's data layer.
    const layer = await page.evaluate(() => window.dataLayer?.filter((e) => e.event === 'pageView') ?? [])
    expect(layer.map((e) => e.eventId)).toEqual([p.eventId])
    // The auth session is fetched once per page load, as text/json (spec point 7).
    expect((await sessionRequest).headers().accept).toBe('text/json')
    expect(pageErrors).toEqual([])
    await context.close()
  })

  it('a 14-character click id is not paid', async () => {
    const context = await freshContext()
    const { page } = await newPage(context)
    await page.goto(brandUrl('m10', port, `/?utm_campaign=spring&gclid=${'B'.repeat(14)}`))
    await page.waitForFunction(() => window.__funnelworks?.visitor() != null)
    const visitor = (await visitorOf(page)) as VisitorRecord
    expect(visitor.session.paid).toBe(false)
    await expect
      .poll(async () => (await eventsOfSession(visitor.session.id))[0]?.paid, { timeout: 10_000 })
      .toBe(false)
    await context.close()
  })

  it('a stored anonymousId is linked once with anonLink', async () => {
    const context = await freshContext()
    await context.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('anonymousId', 'legacy-anon-0001')
        sessionStorage.setItem('seeded', '1')
      }
    })
    const { page } = await newPage(context)
    await page.goto(brandUrl('bh', port, '/'))
    await page.waitForFunction(() => window.__funnelworks?.visitor() != null)
    const visitor = (await visitorOf(page)) as VisitorRecord
    await page.reload()
    await page.waitForFunction(() => window.__funnelworks?.visitor() != null)
    await expect
      .poll(async () => (await eventsOfSession(visitor.session.id)).length, { timeout: 10_000 })
      .toBe(3)
    const links = (await eventsOfSession(visitor.session.id)).filter((e) => e.name === 'anonLink')
    expect(links).toHaveLength(1)
    expect(links[0].body.properties.oldUserId).toBe('legacy-anon-0001')
    expect(await page.evaluate(() => localStorage.getItem('anonIdLinked'))).toBe('true')
    await context.close()
  })

  it('events wait in the queue while the server cannot be reached, then arrive', async () => {
    const context = await freshContext()
    const { page } = await newPage(context)
    await page.route('**/api/event/create', (route) => route.abort('internetdisconnected'))
    await page.goto(brandUrl('gs', port, '/'))
    await page.waitForFunction(() => (window.__funnelworks?.queued() ?? 0) > 0)
    const visitor = (await visitorOf(page)) as VisitorRecord
    expect(await eventsOfSession(visitor.session.id)).toHaveLength(0)
    await page.unroute('**/api/event/create')
    await page.evaluate(() => window.dispatchEvent(new Event('online')))
    await expect
      .poll(async () => (await eventsOfSession(visitor.session.id)).length, { timeout: 10_000 })
      .toBe(1)
    await page.waitForFunction(() => window.__funnelworks?.queued() === 0)
    await context.close()
  })

  it('two tabs converge on the same visitor record, in the browser and on the server', async () => {
    const context = await freshContext()
    const a = await newPage(context)
    await a.page.goto(brandUrl('m10', port, '/'))
    await a.page.waitForFunction(() => window.__funnelworks?.visitor() != null)
    const first = (await visitorOf(a.page)) as VisitorRecord
    // A second tab arrives from a campaign click: a new session, which the first tab adopts.
    const b = await newPage(context)
    await b.page.goto(brandUrl('m10', port, `/?utm_campaign=fall&fbclid=${'F'.repeat(20)}`))
    await b.page.waitForFunction(() => window.__funnelworks?.visitor() != null)
    const second = (await visitorOf(b.page)) as VisitorRecord
    expect(second.userId).toBe(first.userId)
    expect(second.session.id).not.toBe(first.session.id)
    expect(second.session.paid).toBe(true)
    await expect.poll(() => visitorOf(a.page)).toEqual(second)
    await expect.poll(() => ops.visitor(second.userId), { timeout: 10_000 }).toEqual(second)
    await context.close()
  })

  it('a funnel walk leaves one pageview per step and formStepSubmitted per submit, with the full context', async () => {
    const entry = funnelCatalogue().find((c) => c.pages.some((p) => p.path === '/quiz/otc/{step?}'))!
    const quizPage = entry.pages.find((p) => p.path === '/quiz/otc/{step?}')!
    const context = await freshContext()
    const { page, pageErrors } = await newPage(context)
    await page.goto(brandUrl('m10', port, `/quiz/otc?utm_campaign=otc&fbclid=${'F'.repeat(15)}`))
    await page.waitForFunction(() => window.__funnelworks?.visitor() != null)
    const visitor = (await visitorOf(page)) as VisitorRecord
    const visited = await completeFunnel(page, entry.funnel, '/quiz/otc')
    const ofFunnel = async () =>
      (await eventsOfSession(visitor.session.id)).filter(
        (e) => e.body.properties.url.path.startsWith('/quiz/otc') && e.name !== FUNNEL_COMPLETED,
      )
    const expected = visited.length * 2
    await expect.poll(async () => (await ofFunnel()).length, { timeout: 15_000 }).toBe(expected)
    // Finishing at the destination is one lead (decision 0900); leaving for another page is none.
    const completed = async () =>
      (await eventsOfSession(visitor.session.id)).filter((e) => e.name === FUNNEL_COMPLETED)
    const finished = new URL(page.url()).pathname === quizPage.destination
    await expect.poll(async () => (await completed()).length, { timeout: 15_000 }).toBe(finished ? 1 : 0)
    if (finished)
      expect((await completed())[0].body.properties).toMatchObject({
        formVersion: entry.funnel.formVersion,
        exit: 'destination',
      })
    const events = (await ofFunnel()).sort((a, b) => a.client_ts.localeCompare(b.client_ts))
    const views = events.filter((e) => e.type === 'page')
    const submits = events.filter((e) => e.name === FORM_STEP_SUBMITTED)
    // One pageview per step (the automatic pageview is skipped on funnel pages), named by page;
    // the server records them with the posted step (docs/decisions/0524).
    expect(views.map((e) => e.body.properties.page?.stepName)).toEqual(visited)
    expect(
      views.every((e) => e.name === quizPage.key && e.body.type === 'page' && e.body.category === 'funnel'),
    ).toBe(true)
    expect(submits.map((e) => e.body.properties.stepName)).toEqual(visited)
    for (const [i, e] of submits.entries()) {
      expect(e.body.properties).toMatchObject({
        formVersion: entry.funnel.formVersion,
        stepNumber: i + 1,
        brand: { id: 'm10' },
        session: { id: visitor.session.id, paid: true },
        // The server records a posted step (docs/decisions/0524) under the visitor's anonymous id.
        userId: visitor.anonymousId,
        page: { name: quizPage.key, template: 'funnel', stepName: visited[i] },
      })
      expect(e.body.properties.data).toBeTypeOf('object')
      expect(e.paid).toBe(true)
    }
    expect(pageErrors).toEqual([])
    await context.close()
  })
})
