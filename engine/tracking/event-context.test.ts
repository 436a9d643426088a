import { describe, expect, it } from 'vitest'
import { validatorFor } from '../definitions/validators'
import type { PageEntry } from '../snapshot/types'
import { measurementSessionCookie } from './cookies'
import { dataLayerEntry, pageEventBody, trackEventBody } from './event-body'
import { buildEventProperties } from './event-context'
import { planPageOnEnter } from './page-on-enter'

const page = {
  key: 'grocery',
  path: '/grocery',
  brands: ['m10', 'bh'],
  template: 'landing',
  title: 'Grocery allowance',
  product: 'Grocery card',
  benefits: ['groceries'],
  language: 'english',
  indexable: true,
  file: 'definitions/pages/grocery.json',
  smid: { m10: 'smid-m10', bh: 'smid-bh' },
  xsmid: { m10: 'xsmid-m10' },
} as PageEntry

const props = (extras?: Record<string, unknown>) =>
  buildEventProperties({
    eventId: 'evt-00000001',
    timestamp: '2026-11-21T10:00:00.000Z',
    brand: { id: 'm10', name: 'Medicare10', measurementId: 'G-ABC123XYZ' },
    userId: 'user-0001',
    session: { id: 'sess-0001', paid: true, urlParams: { utm_campaign: 'c' } },
    page,
    phoneRule: { defaultNumber: '18005550100', placementId: 'p1', afid: '42' },
    bot: { bot: false },
    urlParams: { utm_campaign: 'c' },
    browser: {
      href: 'https://medicare10.com/grocery?utm_campaign=c',
      pathname: '/grocery',
      search: '?utm_campaign=c',
      cookie: '_ga=GA1.1.1.2; other=1; _fbp=fb.1.2.3; _ga_ABC123XYZ=GS1.1.9',
      referrer: 'https://www.google.com/',
      userAgent: 'Mozilla/5.0',
    },
    extras,
  })

describe('analytics event context (spec points 3 and 7)', () => {
  it('carries every context field, referrer and url {full, path, query}', () => {
    const p = props({ stepNumber: 2 })
    expect(p).toEqual({
      stepNumber: 2,
      eventId: 'evt-00000001',
      timestamp: '2026-11-21T10:00:00.000Z',
      brand: { id: 'm10', name: 'Medicare10', measurementId: 'G-ABC123XYZ' },
      userId: 'user-0001',
      session: { id: 'sess-0001', paid: true, urlParams: { utm_campaign: 'c' } },
      page: {
        name: 'grocery',
        smid: 'smid-m10',
        xsmid: 'xsmid-m10',
        title: 'Grocery allowance',
        product: 'Grocery card',
        benefits: ['groceries'],
        language: 'english',
        template: 'landing',
      },
      phoneRule: { defaultNumber: '18005550100', placementId: 'p1', afid: '42' },
      url: {
        full: 'https://medicare10.com/grocery?utm_campaign=c',
        path: '/grocery',
        query: 'utm_campaign=c',
      },
      cookies: { _ga: 'GA1.1.1.2', _fbp: 'fb.1.2.3', _ga_ABC123XYZ: 'GS1.1.9' },
      bot: { bot: false },
      urlParams: { utm_campaign: 'c' },
      userAgent: 'Mozilla/5.0',
      referrer: 'https://www.google.com/',
    })
  })

  it('smid/xsmid are per brand; a brand without one gets null', () => {
    const p = buildEventProperties({ ...propsInput(), brand: { id: 'bh', name: 'Benefit Helpline' } })
    expect(p.page).toMatchObject({ smid: 'smid-bh', xsmid: null })
    expect(p.cookies).toEqual({ _ga: 'GA1.1.1.2', _fbp: 'fb.1.2.3' })
  })

  it('extras never replace context fields', () => {
    expect(props({ userId: 'spoofed', session: null }).userId).toBe('user-0001')
  })

  it('names the per-measurement session cookie after the measurement id', () => {
    expect(measurementSessionCookie('G-ABC123XYZ')).toBe('_ga_ABC123XYZ')
  })
})

function propsInput() {
  return {
    eventId: 'evt-00000001',
    timestamp: '2026-11-21T10:00:00.000Z',
    brand: null,
    userId: 'user-0001',
    session: { id: 'sess-0001', paid: false, urlParams: {} },
    page,
    phoneRule: null,
    bot: null,
    urlParams: {},
    browser: {
      href: 'https://x/',
      pathname: '/',
      search: '',
      cookie: '_ga=GA1.1.1.2; _fbp=fb.1.2.3',
      referrer: '',
      userAgent: 'UA',
    },
  }
}

describe('event bodies (spec point 7)', () => {
  const ids = { timestamp: '2026-11-21T10:00:00.000Z', sessionId: 'sess-0001', anonymousId: 'anon-0001' }
  const validate = validatorFor('analytics-event.schema.json')

  it('pageview: {type: page, timestamp, sessionId, anonymousId, name, category, properties}', () => {
    const body = pageEventBody(ids, 'grocery', 'landing', props())
    expect(Object.keys(body)).toEqual([
      'type',
      'timestamp',
      'sessionId',
      'anonymousId',
      'name',
      'category',
      'properties',
    ])
    expect(body.type).toBe('page')
    expect(validate(body)).toBe(true)
  })

  it('others: {type: track, event, timestamp, sessionId, anonymousId, properties}', () => {
    const body = trackEventBody(
      ids,
      'formStepSubmitted',
      props({ stepName: 'zip', data: { zipcode: '90210' } }),
    )
    expect(Object.keys(body)).toEqual([
      'type',
      'event',
      'timestamp',
      'sessionId',
      'anonymousId',
      'properties',
    ])
    expect(validate(body)).toBe(true)
  })

  it('the data layer gets the event name under `event`', () => {
    expect(dataLayerEntry(trackEventBody(ids, 'lowBidResult', props()))).toMatchObject({
      event: 'lowBidResult',
      eventId: 'evt-00000001',
    })
    expect(dataLayerEntry(pageEventBody(ids, 'grocery', 'landing', props()))).toMatchObject({
      event: 'pageView',
      pageName: 'grocery',
    })
  })
})

describe('page on-enter actions (spec point 2)', () => {
  it('runs track actions and reports what a page cannot run', () => {
    const plan = planPageOnEnter([
      { type: 'track', event: 'landed', properties: { variant: 'a' } },
      { type: 'demand-check' },
      { type: 'track', event: 'conditional', when: { type: 'low-bid' } } as never,
    ])
    expect(plan.tracks).toEqual([{ event: 'landed', properties: { variant: 'a' } }])
    expect(plan.skipped.map((s) => s.action.type)).toEqual(['demand-check', 'track'])
    expect(planPageOnEnter(undefined)).toEqual({ tracks: [], skipped: [] })
    expect(planPageOnEnter({ type: 'track', event: 'one' }).tracks).toHaveLength(1)
  })
})
