/**
 * The server as the one interpreter and holder of a visitor's answers (issue 35, docs/decisions
 * 0230–0232), over HTTP against the in-process app without any script: Back, reload, a return and a
 * resume link render the step with the answers the server holds (never cached); a content change
 * places the visitor as the resume rule says; the thank-you page shows the number the lead record
 * says; events keep their order, so drop-off counts a completed visitor as completed; resume links
 * grant only what they must.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FUNNEL_NOTICE_COOKIE } from '../../engine/constants'
import { validValue } from '../../engine/funnel/sample-values'
import { isWithinBusinessHours } from '../../engine/phone/business-hours'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import { editFile, snapshotOf } from '../../tests/fixtures/edited-definitions'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../../tests/fixtures/marketplace-simulator/simulator'
import { type FunnelHttp, idOfCookie, keepCookies, startFunnelHttp } from '../../tests/model/funnel-http'
import { formatLead } from '../cli/format-lead'
import { funnelDropoffRaw } from '../store/funnel-dropoff'
import { leadStory } from '../store/lead-store'
import { resumeLinksOf } from './funnel-resume'

let http: FunnelHttp
let sim: MarketplaceSimulator

beforeAll(async () => {
  sim = await startMarketplaceSimulator()
  http = await startFunnelHttp({ mediaalphaBaseUrl: sim.url, resumeLinkDays: 2 })
}, 120_000)

afterAll(async () => {
  await http?.close()
  await sim?.close()
})

const funnelOf = (id: string): ResolvedFunnel => http.snapshots.current.funnels.get(id)!
const validForm = (funnel: ResolvedFunnel, stepName: string): Record<string, string> =>
  Object.fromEntries(
    funnel.steps.find((s) => s.name === stepName)!.fields.map((f) => [f.name, String(validValue(f))]),
  )

/** Posts steps of quiz-otc in order with valid answers, from `cookie`; the cookie the browser then holds. */
async function walk(steps: string[], cookie = '', brand = 'm10'): Promise<string> {
  const otc = funnelOf('quiz-otc')
  for (const name of steps) {
    const a = await http.post(brand, `/quiz/otc/${name}`, validForm(otc, name), cookie ? { cookie } : {})
    expect(a.status, `${name}: ${a.body.slice(0, 200)}`).toBe(303)
    cookie = keepCookies(cookie, a)
  }
  return cookie
}

describe('the server holds the answers and renders them', () => {
  it('Back, reload and a return render the step with the answers the server holds, never cached', async () => {
    const cookie = await walk(['zip', 'medicare'])
    // Back (the form's button) goes to the step before, which shows its answer.
    const back = await http.post('m10', '/quiz/otc/medicaid', { _action: 'back' }, { cookie })
    expect(back.location).toBe('/quiz/otc/medicare')
    const zip = await http.get('m10', '/quiz/otc/zip', cookie)
    expect(zip.status).toBe(200)
    expect(zip.headers['cache-control']).toBe('no-store')
    expect(zip.body).toContain('value="90210"')
    // Another browser (no cookie) gets the page everybody gets: no answer in it.
    const anybody = await http.get('m10', '/quiz/otc/zip')
    expect(anybody.status).toBe(200)
    expect(anybody.body).not.toContain('value="90210"')
    // A return at the funnel's start goes to the first step that needs an answer.
    const back2 = await http.get('m10', '/quiz/otc?utm_source=fb', cookie)
    expect(back2.status).toBe(303)
    expect(back2.location).toBe('/quiz/otc/medicaid?utm_source=fb')
    // A step the route does not reach yet sends the visitor to the step it requires.
    const ahead = await http.get('m10', '/quiz/otc/contact', cookie)
    expect(ahead.location).toBe('/quiz/otc/medicaid')
  })

  it('after a content change a reload or a post never finishes without the newly required step', async () => {
    const cookie = await walk(['zip', 'medicare', 'medicaid', 'name'])
    const before = http.snapshots.current
    try {
      // A step added before the visitor's step.
      http.snapshots.swap(
        snapshotOf(
          editFile('definitions/funnels/quiz-otc.json', (doc) =>
            doc.steps.splice(2, 0, { step: 'homeowner' }),
          ),
        ),
      )
      const reload = await http.get('m10', '/quiz/otc/contact', cookie)
      expect(reload.status).toBe(303)
      expect(reload.location).toBe('/quiz/otc/homeowner')
      const otc = funnelOf('quiz-otc')
      const post = await http.post('m10', '/quiz/otc/contact', validForm(otc, 'contact'), { cookie })
      expect(post.status).toBe(303)
      expect(post.location).toBe('/quiz/otc/homeowner')
      const story = await leadStory(http.store.db, idOfCookie(cookie)!)
      expect(story.entries.some((e) => e.kind === 'event' && e.event.name === 'funnelCompleted')).toBe(false)
      // What was posted on the step not yet reached is kept: it is shown once the visitor gets there.
      const after = await walk(['homeowner', 'medicaid', 'name'], cookie)
      const contact = await http.get('m10', '/quiz/otc/contact', after)
      expect(contact.status).toBe(200)
      expect(contact.body).toContain(`value="${validForm(otc, 'contact').email}"`)
    } finally {
      http.snapshots.swap(before)
    }
  })
})

describe('one truth for what was shown, events in a stable order', () => {
  it('the thank-you page shows the number `leads show` reports; drop-off counts the visitor as completed', async () => {
    const since = new Date(Date.now() - 1000)
    const cookie = await walk(['zip', 'medicare', 'medicaid', 'name', 'contact'])
    const anonymousId = idOfCookie(cookie)!
    const page = await http.get('m10', '/thank-you', cookie)
    expect(page.status).toBe(200)
    expect(page.headers['cache-control']).toBe('no-store')
    const story = await leadStory(http.store.db, anonymousId)
    // The number held is the last one leased (each posted quote change leased one: 0235).
    const lease = story.entries.filter((e) => e.kind === 'marketplace' && e.call.kind === 'get-phone').at(-1)
    expect(lease).toMatchObject({ call: { ok: true } })
    const leased = lease?.kind === 'marketplace' ? lease.call.phone! : ''
    const open = isWithinBusinessHours(Date.now())
    expect(story.numberShown).toMatchObject(
      open ? { number: leased, source: 'leased' } : { number: null, source: 'none' },
    )
    const digits = (s: string) => s.replace(/\D/g, '')
    const shownOnPage =
      /data-testid="thank-you-phone"[^>]*><a href="tel:\+(\d+)"/.exec(page.body)?.[1] ?? null
    expect(shownOnPage).toBe(open ? digits(leased) : null)
    expect(formatLead(story)).toContain(open ? `Number shown: ${leased} (leased` : 'Number shown: none')
    // Another visitor's thank-you page carries no number of this one.
    expect((await http.get('m10', '/thank-you')).body).not.toContain('data-testid="thank-you-phone"')

    // The last step's view, its submit and the completion share a request: kept in that order.
    const names = story.entries.filter((e) => e.kind === 'event').map((e) => e.event.name)
    const done = names.indexOf('funnelCompleted')
    expect(names.slice(done - 2, done + 1)).toEqual(['quiz-otc', 'formStepSubmitted', 'funnelCompleted'])
    const dropoff = await funnelDropoffRaw(http.store.db, {
      funnel: 'quiz-otc',
      steps: funnelOf('quiz-otc').steps.map((s) => s.name),
      pages: ['quiz-otc'],
      since,
      until: new Date(Date.now() + 1000),
    })
    const contact = dropoff.steps.find((s) => s.step === 'contact')!
    expect(contact).toMatchObject({ reached: 1, submitted: 1, completed: 1, left: 0 })
  })
})

describe('resume links grant only what they must', () => {
  async function linkFor(cookie: string, brand = 'm10') {
    const a = await http.json(
      brand,
      '/api/funnel/resume-link',
      { anonymousId: idOfCookie(cookie), path: '/quiz/otc' },
      cookie,
    )
    expect(a.status, a.body).toBe(200)
    return JSON.parse(a.body) as { url: string; expiresAt: string; mailto: string }
  }
  const tokenPath = (url: string) => new URL(url).pathname
  const refused = (a: { status: number; location?: string; cookies: string[] }) =>
    a.status === 303 &&
    a.location === '/quiz/otc/zip' &&
    a.cookies.some((c) => c.startsWith(`${FUNNEL_NOTICE_COOKIE}=`))

  it('a new browser gets the step and non-contact answers, never the contact details before it continues', async () => {
    const cookie = await walk(['zip', 'medicare', 'medicaid', 'name', 'contact'].slice(0, 4))
    const otc = funnelOf('quiz-otc')
    const name = validForm(otc, 'name')
    const link = await linkFor(cookie)
    expect(Date.parse(link.expiresAt) - Date.now()).toBeLessThanOrEqual(2 * 86_400_000)
    // The mailto says what the link gives.
    const body = decodeURIComponent(link.mailto.split('body=')[1])
    expect(body).toContain(link.url)
    expect(body).toMatch(/2 days/)
    expect(body).toMatch(/not your name, e-mail or phone/)

    const opened = await http.get('m10', tokenPath(link.url))
    expect(opened.status).toBe(303)
    expect(opened.location).toBe('/quiz/otc/contact')
    let other = keepCookies('', opened)
    const responses = [opened]
    responses.push(await http.get('m10', '/quiz/otc/contact', other))
    responses.push(await http.get('m10', '/quiz/otc/name', other))
    responses.push(await http.get('m10', '/quiz/otc/zip', other))
    for (const r of responses)
      for (const v of [name.firstName, name.lastName]) expect(r.body, r.body.slice(0, 200)).not.toContain(v)
    expect(responses[3].body).toContain('value="90210"')
    // Once it continues (posts a step), the answers are its own.
    const posted = await http.post('m10', '/quiz/otc/zip', { zipcode: '90210' }, { cookie: other })
    other = keepCookies(other, posted)
    expect(posted.status).toBe(303)
    expect((await http.get('m10', '/quiz/otc/name', other)).body).toContain(`value="${name.firstName}"`)
  })

  it('is refused on another brand host, after the funnel completes, after its lifetime, and after starting over', async () => {
    const cookie = await walk(['zip', 'medicare'])
    const link = await linkFor(cookie)
    expect(refused(await http.get('bh', tokenPath(link.url)))).toBe(true)
    expect((await http.get('m10', tokenPath(link.url))).location).toBe('/quiz/otc/medicaid')
    // Expired: made longer ago than RESUME_LINK_DAYS.
    const old = resumeLinksOf(http.deps).mint(
      { anonymousId: idOfCookie(cookie)!, path: '/quiz/otc', host: http.host('m10'), days: 2 },
      Date.now() - 3 * 86_400_000,
    )
    expect(refused(await http.get('m10', `/_resume/${old.token}`))).toBe(true)
    // Completed: every link made before is over.
    const done = await walk(['medicaid', 'name', 'contact'], cookie)
    expect(refused(await http.get('m10', tokenPath(link.url)))).toBe(true)
    // Starting over ends the links made before, and the funnel starts afresh.
    const again = await walk(['zip'], done)
    const second = await linkFor(again)
    // The step shown with the answers held offers it (docs/decisions/0234): the form's restart button.
    const shown = await http.get('m10', '/quiz/otc/medicare', again)
    expect(shown.body).toMatch(
      /<button type="submit" value="restart" class="link-button funnel-restart" name="_action">Start over<\/button>/,
    )
    const restart = await http.post('m10', '/quiz/otc/medicare', { _action: 'restart' }, { cookie: again })
    expect(restart.location).toBe('/quiz/otc/zip')
    expect(refused(await http.get('m10', tokenPath(second.url)))).toBe(true)
    expect((await http.get('m10', '/quiz/otc/zip', again)).body).not.toContain('value="90210"')
  })
})
