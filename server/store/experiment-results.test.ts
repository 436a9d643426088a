import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnalyticsEvent } from '../../schemas/generated/analytics-event'
import type { EventRow } from './event-rows'
import { insertEvents } from './event-store'
import { type ExperimentDimension, experimentTotalsRaw } from './experiment-results'
import type { Store } from './open-store'
import { experimentTotals as fromRollup } from './rollups'
import { DB_KINDS, openTestStore } from './test-databases'

const T0 = Date.parse('2026-11-01T12:00:00Z')
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString()

/** One stored event of a browser, under the experiment when `variant` is given. */
function row(
  anon: string,
  minutes: number,
  e: {
    type?: 'page' | 'track'
    name?: string
    category?: string
    variant?: string
    bot?: boolean
    stepNumber?: number
    brand?: string
    utm?: string
    paid?: boolean
  },
): EventRow {
  const type = e.type ?? 'page'
  const body = {
    type,
    timestamp: at(minutes),
    sessionId: `s-${anon}`,
    anonymousId: anon,
    name: e.name ?? 'grocery',
    ...(type === 'page' ? { category: e.category ?? 'landing' } : {}),
    properties: {
      eventId: randomUUID(),
      page: { name: 'grocery', ...(e.variant ? { experiment: { id: 'exp-1', variant: e.variant } } : {}) },
      bot: e.bot ? { bot: true, kind: 'headless' } : { bot: false },
      ...(e.stepNumber ? { stepNumber: e.stepNumber } : {}),
      ...(e.utm ? { session: { id: `s-${anon}`, paid: !!e.paid, urlParams: { utm_source: e.utm } } } : {}),
    },
  } as unknown as AnalyticsEvent
  return {
    id: body.properties.eventId as string,
    type,
    name: e.name ?? 'grocery',
    brand_id: e.brand ?? 'm10',
    session_id: `s-${anon}`,
    anonymous_id: anon,
    user_id: null,
    paid: e.paid ?? false,
    client_ts: at(minutes),
    received_at: at(minutes),
    ip: null,
    body,
  }
}

describe.each(DB_KINDS)('experiment totals on %s', (kind) => {
  let store: Store
  /** The totals from the rollup (what the control center shows), checked against the raw query. */
  const experimentTotals = async (
    db: Store['db'],
    id: string,
    from: Date,
    to: Date,
    dimension?: ExperimentDimension,
  ) => {
    const rolled = await fromRollup(db, id, from, to, dimension)
    expect(rolled).toEqual(await experimentTotalsRaw(db, id, from, to, dimension))
    return rolled
  }
  beforeAll(async () => {
    store = await openTestStore(kind)
    const rows: EventRow[] = []
    // Control: 3 browsers; one completes the funnel (thank-you), one only starts it.
    rows.push(
      row('c1', 0, { variant: 'control', brand: 'mpa', utm: 'facebook', paid: true }),
      row('c1', 1, { type: 'track', name: 'formStepSubmitted', stepNumber: 1, variant: 'control' }),
      row('c1', 2, { type: 'track', name: 'formStepSubmitted', stepNumber: 2, variant: 'control' }),
      row('c1', 3, { type: 'track', name: 'formStepSubmitted', stepNumber: 3, variant: 'control' }),
      row('c1', 5, { category: 'thank-you', name: 'thank-you' }),
    )
    rows.push(
      row('c2', 0, { variant: 'control' }),
      row('c2', 2, { type: 'track', name: 'formStepSubmitted', stepNumber: 1, variant: 'control' }),
    )
    rows.push(row('c3', 60 * 24, { variant: 'control' }))
    // Question: 2 browsers, one lead by funnelCompleted; a thank-you 8 days later does not count.
    rows.push(
      row('q1', 0, { variant: 'question', utm: 'facebook', paid: true }),
      row('q1', 1, { type: 'track', name: 'formStepSubmitted', stepNumber: 1, variant: 'question' }),
      row('q1', 3, { type: 'track', name: 'funnelCompleted', variant: 'question' }),
    )
    rows.push(
      row('q2', 0, { variant: 'question' }),
      row('q2', 8 * 24 * 60, { category: 'thank-you', name: 'thank-you' }),
    )
    // Left out: a browser that saw both variants, and a bot.
    rows.push(row('both', 0, { variant: 'control' }), row('both', 1, { variant: 'question' }))
    rows.push(row('bot', 0, { variant: 'question', bot: true }), row('bot', 1, { category: 'thank-you' }))
    // A thank-you before exposure is no lead; another experiment's events are not counted.
    rows.push(row('early', 0, { category: 'thank-you' }), row('early', 10, { variant: 'control' }))
    const other = row('x', 0, { variant: 'control' })
    ;(other.body.properties as { page: { experiment: { id: string } } }).page.experiment.id = 'exp-2'
    rows.push(other)
    await insertEvents(store.db, rows)
  }, 60_000)
  afterAll(() => store?.close())

  it('counts browsers, leads and starts per variant, and what it left out', async () => {
    const t = await experimentTotals(
      store.db,
      'exp-1',
      new Date(T0 - 3600_000),
      new Date(T0 + 30 * 24 * 3600_000),
    )
    expect(t.variants).toEqual([
      { variant: 'control', users: 4, leads: 1, started: 2 },
      { variant: 'question', users: 2, leads: 1, started: 1 },
    ])
    expect(t.multipleExposures).toBe(1)
    expect(t.bots).toBe(1)
    expect(t.daily).toEqual([
      { day: '2026-11-01', variant: 'control', users: 3 },
      { day: '2026-11-01', variant: 'question', users: 2 },
      { day: '2026-11-02', variant: 'control', users: 1 },
    ])
    // Reach: c1 went to step 3, c2 to step 1; q1 to step 1.
    expect(t.steps).toEqual([
      { variant: 'control', step: 1, users: 2 },
      { variant: 'control', step: 2, users: 1 },
      { variant: 'control', step: 3, users: 1 },
      { variant: 'question', step: 1, users: 1 },
      { variant: 'question', step: 2, users: 0 },
      { variant: 'question', step: 3, users: 0 },
    ])
    expect(t.segments).toBeUndefined()
  })

  it('splits the same totals by a dimension of the first exposure', async () => {
    const range = [new Date(T0 - 3600_000), new Date(T0 + 30 * 24 * 3600_000)] as const
    const brand = await experimentTotals(store.db, 'exp-1', ...range, 'brand')
    expect(brand.segments).toEqual([
      { segment: 'm10', variant: 'control', users: 3, leads: 0, started: 1 },
      { segment: 'm10', variant: 'question', users: 2, leads: 1, started: 1 },
      { segment: 'mpa', variant: 'control', users: 1, leads: 1, started: 1 },
    ])
    // The overall totals are the same with a dimension.
    expect(brand.variants).toEqual((await experimentTotals(store.db, 'exp-1', ...range)).variants)
    const utm = await experimentTotals(store.db, 'exp-1', ...range, 'utm_source')
    expect(utm.segments?.map((s) => [s.segment, s.variant, s.users])).toEqual([
      ['(none)', 'control', 3],
      ['(none)', 'question', 1],
      ['facebook', 'control', 1],
      ['facebook', 'question', 1],
    ])
    const paid = await experimentTotals(store.db, 'exp-1', ...range, 'paid')
    expect(paid.segments?.map((s) => [s.segment, s.variant, s.users])).toEqual([
      ['organic', 'control', 3],
      ['organic', 'question', 1],
      ['paid', 'control', 1],
      ['paid', 'question', 1],
    ])
  })

  it('counts only exposures inside the phase', async () => {
    const t = await experimentTotals(
      store.db,
      'exp-1',
      new Date(T0 + 60_000 * 60),
      new Date(T0 + 30 * 24 * 3600_000),
    )
    expect(t.variants).toEqual([{ variant: 'control', users: 1, leads: 0, started: 0 }])
  })
})
