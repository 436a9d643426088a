import { describe, expect, it } from 'vitest'
import { SESSION_IDLE_TIMEOUT_MS } from '../constants'
import { planVisit, type VisitInput } from './visitor-plan'

let n = 0
const base = (over: Partial<VisitInput> = {}): VisitInput => ({
  stored: null,
  lastActivityAt: null,
  userId: 'user-1',
  anonymousId: 'anon-1',
  urlParams: {},
  paidParams: {},
  now: 1_000_000,
  newId: () => `s-${++n}`,
  ...over,
})

describe('visitor record per page view', () => {
  it('a first visit starts a session with the paid flag and the first-touch parameters', () => {
    const gclid = 'g'.repeat(15)
    const plan = planVisit(
      base({
        urlParams: { utm_campaign: 'c', gclid },
        paidParams: { utm_campaign: 'c', gclid, ttclid: 'x' },
      }),
    )
    expect(plan.changed).toBe(true)
    expect(plan.newSession).toBe(true)
    expect(plan.record.session).toMatchObject({ paid: true, urlParams: { utm_campaign: 'c', gclid } })
    expect(plan.record.urlParams).toEqual({ utm_campaign: 'c', gclid })
  })

  it('a page of the same session changes nothing', () => {
    const first = planVisit(base()).record
    const again = planVisit(base({ stored: first, lastActivityAt: 1_000_000, now: 1_000_000 + 60_000 }))
    expect(again).toEqual({ record: first, changed: false, newSession: false })
  })

  it('inactivity beyond the timeout starts a new session; first touch stays', () => {
    const first = planVisit(base({ urlParams: { utm_source: 'fb' } })).record
    const later = planVisit(
      base({ stored: first, lastActivityAt: 1_000_000, now: 1_000_001 + SESSION_IDLE_TIMEOUT_MS }),
    )
    expect(later.newSession).toBe(true)
    expect(later.record.session.id).not.toBe(first.session.id)
    expect(later.record.urlParams).toEqual({ utm_source: 'fb' })
  })

  it('different campaign parameters start a new session at once', () => {
    const first = planVisit(base({ urlParams: { utm_campaign: 'a' } })).record
    const click = planVisit(
      base({ stored: first, lastActivityAt: 1_000_000, urlParams: { utm_campaign: 'b' } }),
    )
    expect(click.newSession).toBe(true)
    expect(click.record.session.urlParams).toEqual({ utm_campaign: 'b' })
    expect(click.record.urlParams).toEqual({ utm_campaign: 'a' })
  })
})
