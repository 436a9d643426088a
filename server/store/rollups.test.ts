import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnalyticsEvent } from '../../schemas/generated/analytics-event'
import type { EventRow } from './event-rows'
import { type ExperimentDimension, experimentTotalsRaw } from './experiment-results'
import { type DropoffDimension, funnelDropoff, funnelDropoffRaw } from './funnel-dropoff'
import { FUNNEL_STEP_COLUMNS, funnelStepRowsSql } from './funnel-steps'
import type { Store } from './open-store'
import { experimentTotals, rebuildRollups, refreshRollups } from './rollups'
import { DB_KINDS, openTestStore } from './test-databases'

/** A small deterministic generator (mulberry32): the same "random" data on every run and store. */
function random(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const STEPS = ['zip', 'age', 'coverage', 'contact']
const PAGES = ['quiz-a', 'quiz-b']
const UAS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120',
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)',
  '',
]
/** Three months in the past, so the events span several monthly partitions. */
const START = Date.parse('2026-08-20T00:00:00Z')
const SPAN_MS = 80 * 86_400_000

let seq = 0
function event(
  anon: string,
  ts: number,
  e: {
    type: 'page' | 'track'
    name: string
    page: string
    category?: string
    stepName?: string
    stepNumber?: number
    variant?: string
    bot?: boolean
    brand: string
    utm?: string
    ua?: string
    serverSide?: boolean
  },
): EventRow {
  const id = `ev-${++seq}`
  const at = new Date(ts).toISOString()
  const body = {
    type: e.type,
    timestamp: at,
    sessionId: `s-${anon}`,
    anonymousId: anon,
    ...(e.type === 'page' ? { name: e.name, category: e.category ?? 'funnel' } : { event: e.name }),
    properties: {
      eventId: id,
      userId: anon,
      url: { full: 'https://x.test/', path: '/', query: '' },
      session: { id: `s-${anon}`, paid: false, urlParams: e.utm ? { utm_source: e.utm } : {} },
      page: {
        name: e.page,
        ...(e.type === 'page' && e.stepName ? { stepName: e.stepName } : {}),
        ...(e.variant ? { experiment: { id: 'exp-r', variant: e.variant } } : {}),
      },
      bot: e.bot ? { bot: true, kind: 'headless' } : { bot: false },
      ...(e.type === 'track' && e.stepName ? { stepName: e.stepName } : {}),
      ...(e.stepNumber ? { stepNumber: e.stepNumber, formVersion: `${e.page}-1` } : {}),
      ...(e.ua ? { userAgent: e.ua } : {}),
      ...(e.serverSide ? { serverSide: true } : {}),
    },
  } as unknown as AnalyticsEvent
  return {
    id,
    type: e.type,
    name: e.name,
    brand_id: e.brand,
    session_id: `s-${anon}`,
    anonymous_id: anon,
    user_id: anon,
    paid: false,
    client_ts: at,
    received_at: at,
    ip: null,
    body,
  }
}

/** One browser's visit: a walk through a funnel page's steps, with exposures, backs, exits and leads. */
function browser(rnd: () => number, n: number): EventRow[] {
  const anon = `b${n}`
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]
  const page = pick(PAGES)
  const brand = pick(['m10', 'mpa', 'bes'])
  const utm = rnd() < 0.5 ? pick(['google', 'facebook']) : undefined
  const ua = pick(UAS)
  const bot = rnd() < 0.08
  const exposed = rnd() < 0.7
  const variant = () => (exposed ? (rnd() < 0.05 ? pick(['a', 'b']) : n % 2 ? 'a' : 'b') : undefined)
  const serverSide = rnd() < 0.3
  let t = START + Math.floor(rnd() * SPAN_MS)
  const tick = () => {
    t += 1000 + Math.floor(rnd() * 600_000)
    return t
  }
  const common = { page, brand, utm, ua, bot, serverSide }
  const out: EventRow[] = []
  let i = 0
  for (let moves = 0; moves < 12; moves++) {
    out.push(
      event(anon, tick(), { ...common, type: 'page', name: page, stepName: STEPS[i], variant: variant() }),
    )
    const r = rnd()
    if (r < 0.15) break // left
    if (r < 0.25 && i > 0) {
      i-- // back
      continue
    }
    out.push(
      event(anon, tick(), {
        ...common,
        type: 'track',
        name: 'formStepSubmitted',
        stepName: STEPS[i],
        stepNumber: i + 1,
        variant: variant(),
      }),
    )
    if (i === STEPS.length - 1) {
      out.push(event(anon, tick(), { ...common, type: 'track', name: 'funnelCompleted', variant: variant() }))
      if (rnd() < 0.8)
        out.push(event(anon, tick(), { ...common, type: 'page', name: 'thank-you', category: 'thank-you' }))
      break
    }
    i++
  }
  return out
}

describe.each(DB_KINDS)('rollups on %s equal the raw queries for random data', (kind) => {
  let store: Store
  const rnd = random(kind === 'pglite' ? 7 : 11)
  const batches: EventRow[][] = []
  beforeAll(async () => {
    store = await openTestStore(kind, 'fw_rollups')
    for (let b = 0; b < 4; b++) {
      const rows: EventRow[] = []
      for (let n = 0; n < 60; n++) rows.push(...browser(rnd, b * 1000 + n))
      // A later batch also brings more events of browsers seen before (they come back).
      if (b > 0) for (let n = 0; n < 15; n++) rows.push(...browser(rnd, (b - 1) * 1000 + n))
      batches.push(rows)
    }
  }, 60_000)
  afterAll(() => store?.close())

  const windows = () => {
    const mid = new Date(START + SPAN_MS / 2)
    return [
      [new Date(START - 86_400_000), new Date(Date.now() + 86_400_000)],
      [new Date(START - 86_400_000), mid],
      [mid, new Date(Date.now() + 86_400_000)],
    ] as const
  }

  const stepRows = async () => {
    const order = `ORDER BY anonymous_id, page, step`
    const rolled = await store.db.query(`SELECT ${FUNNEL_STEP_COLUMNS} FROM funnel_step_visits ${order}`)
    const raw = await store.db.query(`SELECT * FROM (${funnelStepRowsSql('true')}) r ${order}`)
    return { rolled: rolled.rows, raw: raw.rows }
  }

  it('after each batch, concurrent with the rollup job, drop-off and experiment results agree', async () => {
    for (const rows of batches) {
      // Ingest in several writes while the rollup job runs: marks made during a job survive it.
      const parts = [
        rows.slice(0, rows.length / 3),
        rows.slice(rows.length / 3, (2 * rows.length) / 3),
        rows.slice((2 * rows.length) / 3),
      ]
      await Promise.all([
        ...parts.map((p) => store.events.write(p)),
        refreshRollups(store.db, 17),
        refreshRollups(store.db, 17),
      ])
      await store.events.idle()
      await refreshRollups(store.db)
      const { rolled, raw } = await stepRows()
      expect(rolled.length).toBeGreaterThan(0)
      expect(rolled).toEqual(raw)
      for (const [from, to] of windows())
        expect(await experimentTotals(store.db, 'exp-r', from, to)).toEqual(
          await experimentTotalsRaw(store.db, 'exp-r', from, to),
        )
    }
  }, 120_000)

  it('agrees by every dimension, and leaves bots out', async () => {
    const [from, to] = windows()[0]
    for (const dimension of ['brand', 'paid', 'utm_source'] as ExperimentDimension[])
      expect(await experimentTotals(store.db, 'exp-r', from, to, dimension)).toEqual(
        await experimentTotalsRaw(store.db, 'exp-r', from, to, dimension),
      )
    const q = { funnel: 'quiz', steps: STEPS, pages: PAGES, since: from, until: to }
    for (const by of [null, 'brand', 'page', 'source', 'device', 'variant'] as (DropoffDimension | null)[]) {
      const rolled = await funnelDropoff(store.db, { ...q, by })
      expect(rolled).toEqual(await funnelDropoffRaw(store.db, { ...q, by }))
      expect(rolled.visitors).toBeGreaterThan(0)
      // Every browser counted once, whatever the split.
      expect(rolled.segments.reduce((n, x) => n + x.visitors, 0)).toBe(by ? rolled.visitors : 0)
    }
    // Part days at both ends of the range (the rest from the daily table).
    const odd = {
      ...q,
      since: new Date(START + 12.5 * 3600_000),
      until: new Date(START + 50.25 * 86_400_000),
    }
    for (const by of [null, 'device'] as (DropoffDimension | null)[])
      expect(await funnelDropoff(store.db, { ...odd, by })).toEqual(
        await funnelDropoffRaw(store.db, { ...odd, by }),
      )
    // Within one day.
    const short = {
      ...q,
      since: new Date(START + 3 * 86_400_000 + 3600_000),
      until: new Date(START + 3 * 86_400_000 + 7200_000),
    }
    expect(await funnelDropoff(store.db, short)).toEqual(await funnelDropoffRaw(store.db, short))
    // The daily table holds the sums of the step rows, kept by deltas.
    const days = await store.db.query(
      `SELECT day::text, page, step, next, brand, source, device, variant, reached, submitted, visitors
       FROM funnel_step_days ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`,
    )
    const sums = await store.db.query(
      `SELECT ((first_ts AT TIME ZONE 'UTC')::date)::text AS day, page, step, next, brand, source, device, variant,
              count(*)::int AS reached, (count(*) FILTER (WHERE submitted))::int AS submitted,
              (count(*) FILTER (WHERE entry))::int AS visitors
       FROM funnel_step_visits GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`,
    )
    expect(days.rows).toEqual(sums.rows)
    const unitDays = await store.db.query(
      `SELECT experiment_id, from_ts, to_ts, day::text, variants, variant, bot, brand, paid, utm_source, lead, started, steps, n
       FROM experiment_unit_days ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13`,
    )
    const unitSums = await store.db.query(
      `SELECT experiment_id, from_ts, to_ts, ((first_ts AT TIME ZONE 'UTC')::date)::text AS day, least(variants, 2) AS variants,
              COALESCE(variant, '') AS variant, bot, brand, paid, utm_source, lead, started, COALESCE(steps, 0) AS steps,
              count(*)::int AS n
       FROM experiment_units GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13`,
    )
    expect(unitDays.rows.length).toBeGreaterThan(0)
    expect(unitDays.rows).toEqual(unitSums.rows)
    const mid = windows()[1][1]
    expect(await funnelDropoff(store.db, { ...q, until: mid })).toEqual(
      await funnelDropoffRaw(store.db, { ...q, until: mid }),
    )
    // A browser flagged as a bot on a page is left out of that page's drop-off.
    const botRows = await store.db.query<{ n: number }>(
      `SELECT count(DISTINCT anonymous_id)::int AS n FROM events WHERE bot AND body #>> '{properties,page,name}' = ANY($1::text[])`,
      [PAGES],
    )
    expect(botRows.rows[0].n).toBeGreaterThan(0)
    const bots = await store.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM funnel_step_visits v
       WHERE EXISTS (SELECT 1 FROM events e WHERE e.anonymous_id = v.anonymous_id AND e.bot
                       AND e.body #>> '{properties,page,name}' = v.page)`,
    )
    expect(bots.rows[0].n).toBe(0)
    // A rebuild in one pass gives the same rows as the job's increments.
    const before = await stepRows()
    const daysBefore = await store.db.query(
      'SELECT * FROM funnel_step_days ORDER BY page, day, step, next, brand, source, device, variant',
    )
    await rebuildRollups(store.db)
    expect((await stepRows()).rolled).toEqual(before.rolled)
    expect(
      (
        await store.db.query(
          'SELECT * FROM funnel_step_days ORDER BY page, day, step, next, brand, source, device, variant',
        )
      ).rows,
    ).toEqual(daysBefore.rows)
    // Each step's browsers are accounted for once: went on, back, completed or left.
    const all = await funnelDropoff(store.db, q)
    for (const s of all.steps)
      expect(Object.values(s.forward).reduce((a, b) => a + b, 0) + s.back + s.completed + s.left).toBe(
        s.reached,
      )
  })
})
