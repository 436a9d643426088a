/**
 * Drop-off of a funnel (issue 29, docs/decisions/0313): for the browsers whose first event on one of
 * the funnel's pages falls in [since, until), per step in the funnel's order: how many reached it, how
 * many submitted it, and where they went after it — on to another step, back to an earlier one, the
 * funnel completed, or left — optionally split by a dimension of the browser's first event on the page.
 * Read from the rollup (funnel_step_visits) after a catch-up; `dropoffRaw` answers the same from the
 * events, for the bench and the tests.
 */
import type { Snapshot } from '../../engine/snapshot/types'
import type { Db, Queryable } from './db'
import { COMPLETED, funnelStepRowsSql, LEFT } from './funnel-steps'
import { refreshRollups } from './rollups'

/** What a drop-off can be split by (the column of funnel_step_visits). */
export const DROPOFF_DIMENSIONS = ['brand', 'page', 'source', 'device', 'variant'] as const
export type DropoffDimension = (typeof DROPOFF_DIMENSIONS)[number]

export interface DropoffStep {
  step: string
  /** 1-based position in the funnel; null for a step the funnel no longer has. */
  position: number | null
  reached: number
  submitted: number
  /** Went on to a later step, by step name. */
  forward: Record<string, number>
  /** Went back to an earlier step. */
  back: number
  completed: number
  left: number
}

export interface DropoffTable {
  /** Browsers that reached any step. */
  visitors: number
  steps: DropoffStep[]
}

export interface DropoffReport extends DropoffTable {
  funnel: string
  pages: string[]
  since: string
  until: string
  by: DropoffDimension | null
  segments: ({ segment: string } & DropoffTable)[]
}

export interface DropoffQuery {
  funnel: string
  /** The funnel's steps in order. */
  steps: readonly string[]
  /** The pages that run the funnel. */
  pages: readonly string[]
  since: Date
  until: Date
  by?: DropoffDimension | null
}

interface Row {
  segment: string
  step: string
  next: string
  reached: number
  submitted: number
  visitors: number
}

/** One pass: per (segment, step, next) the browsers, those that submitted, and those that entered there. */
const aggregate = (source: string, by: DropoffDimension | null | undefined) => `
  SELECT ${by ? by : "''"} AS segment, step, next, count(*)::int AS reached,
         (count(*) FILTER (WHERE submitted))::int AS submitted, (count(*) FILTER (WHERE entry))::int AS visitors
  FROM (${source}) r GROUP BY 1, 2, 3`

const DAY_MS = 86_400_000

/**
 * The drop-off from the rollup, after catching up with every event committed so far: whole UTC days
 * of the range from funnel_step_days, the part days at its ends from funnel_step_visits.
 */
export async function funnelDropoff(db: Db, q: DropoffQuery): Promise<DropoffReport> {
  await refreshRollups(db)
  const since = q.since.getTime()
  const until = q.until.getTime()
  const firstDay = Math.ceil(since / DAY_MS) * DAY_MS
  const lastDay = Math.floor(until / DAY_MS) * DAY_MS
  const segment = q.by ? q.by : "''"
  const visits = (where: string) => `
    SELECT ${segment} AS segment, step, next, count(*)::int AS reached,
           (count(*) FILTER (WHERE submitted))::int AS submitted, (count(*) FILTER (WHERE entry))::int AS visitors
    FROM funnel_step_visits WHERE page = ANY($1::text[]) AND (${where}) GROUP BY 1, 2, 3`
  if (firstDay >= lastDay) return dropoffOf(db, q, visits('first_ts >= $2 AND first_ts < $3'), true)
  const days = `
    SELECT ${segment} AS segment, step, next, sum(reached)::int AS reached, sum(submitted)::int AS submitted,
           sum(visitors)::int AS visitors
    FROM funnel_step_days WHERE page = ANY($1::text[]) AND day >= $4::date AND day < $5::date GROUP BY 1, 2, 3`
  return dropoffOf(
    db,
    q,
    `${days} UNION ALL ${visits('(first_ts >= $2 AND first_ts < $4) OR (first_ts >= $5 AND first_ts < $3)')}`,
    true,
    [new Date(firstDay).toISOString(), new Date(lastDay).toISOString()],
  )
}

/** The same report straight from the events (the query the rollup replaces). */
export function funnelDropoffRaw(db: Queryable, q: DropoffQuery): Promise<DropoffReport> {
  const page = `CASE WHEN type = 'page' THEN name ELSE body #>> '{properties,page,name}' END`
  return dropoffOf(
    db,
    q,
    funnelStepRowsSql(`${page} = ANY($1::text[])`, 'j.first_ts >= $2 AND j.first_ts < $3'),
  )
}

async function dropoffOf(
  db: Queryable,
  q: DropoffQuery,
  source: string,
  aggregated = false,
  extra: string[] = [],
): Promise<DropoffReport> {
  const r = await db.query<Row>(aggregated ? source : aggregate(source, q.by), [
    [...q.pages],
    q.since.toISOString(),
    q.until.toISOString(),
    ...extra,
  ])
  const segments = [...new Set(r.rows.map((x) => x.segment))].sort()
  const tableOf = (rows: Row[]) => tableFrom(rows, q.steps)
  const overall = tableOf(r.rows)
  return {
    funnel: q.funnel,
    pages: [...q.pages],
    since: q.since.toISOString(),
    until: q.until.toISOString(),
    by: q.by ?? null,
    ...overall,
    segments: q.by
      ? segments.map((segment) => ({ segment, ...tableOf(r.rows.filter((x) => x.segment === segment)) }))
      : [],
  }
}

/** Rows (step, next) → the steps in funnel order (unknown steps after them, by name). */
function tableFrom(rows: Row[], order: readonly string[]): DropoffTable {
  const position = (s: string) => {
    const i = order.indexOf(s)
    return i < 0 ? null : i + 1
  }
  const byStep = new Map<string, DropoffStep>()
  let visitors = 0
  for (const row of rows) {
    visitors += row.visitors
    let s = byStep.get(row.step)
    if (!s) {
      s = {
        step: row.step,
        position: position(row.step),
        reached: 0,
        submitted: 0,
        forward: {},
        back: 0,
        completed: 0,
        left: 0,
      }
      byStep.set(row.step, s)
    }
    s.reached += row.reached
    s.submitted += row.submitted
    if (row.next === COMPLETED) s.completed += row.reached
    else if (row.next === LEFT) s.left += row.reached
    else {
      const from = position(row.step)
      const to = position(row.next)
      if (from !== null && to !== null && to < from) s.back += row.reached
      else s.forward[row.next] = (s.forward[row.next] ?? 0) + row.reached
    }
  }
  // Every step of the funnel appears, reached or not, in its order; steps it no longer has follow.
  for (const name of order)
    if (!byStep.has(name))
      byStep.set(name, {
        step: name,
        position: position(name),
        reached: 0,
        submitted: 0,
        forward: {},
        back: 0,
        completed: 0,
        left: 0,
      })
  const steps = [...byStep.values()].sort(
    (a, b) =>
      (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) ||
      a.step.localeCompare(b.step),
  )
  for (const s of steps)
    s.forward = Object.fromEntries(Object.entries(s.forward).sort(([a], [b]) => a.localeCompare(b)))
  return { visitors, steps }
}

/** The funnel's steps in order and the pages that run it, in a snapshot; null for an unknown funnel. */
export function funnelScope(
  snapshot: Pick<Snapshot, 'funnels' | 'pages'>,
  funnelId: string,
): { steps: string[]; pages: string[] } | null {
  const funnel = snapshot.funnels.get(funnelId)
  if (!funnel) return null
  return {
    steps: funnel.steps.map((s) => s.name),
    pages: [...snapshot.pages.values()]
      .filter((p) => p.form === funnelId)
      .map((p) => p.key)
      .sort(),
  }
}
