/**
 * Incremental rollups (issue 30, docs/decisions/0312). Every insert into events marks the browsers it
 * touched (rollup_dirty, by a statement trigger of migration 0016, in the inserting transaction). The
 * rollup job takes a batch of marks and recomputes those browsers' rows — drop-off step rows
 * (funnel_step_visits) and the units of every experiment window built so far (experiment_units) —
 * from their events, in one transaction: a mark is removed only with the rows it asked for. A mark made
 * while the job runs (by an insert the job's reads could not see) survives for the next batch, a crash
 * rolls the batch back with its marks, and recomputing a browser twice gives the same rows, so the
 * rollups are correct under concurrent ingest, several instances and restarts.
 *
 * Readers run a catch-up first, so an answer includes every event committed before it was asked.
 */
import type { Db, Queryable } from './db'
import {
  EXPERIMENT_UNIT_COLUMNS,
  type ExperimentDimension,
  type ExperimentTotals,
  experimentTotalsOfUnits,
  experimentUnitsSql,
} from './experiment-results'
import { FUNNEL_STEP_COLUMNS, funnelStepRowsSql } from './funnel-steps'

/** Browsers recomputed per transaction of the job. */
export const ROLLUP_BATCH_BROWSERS = 2_000
/** One job at a time per database schema (two instances on one PostgreSQL take turns; other schemas do not wait). */
const ROLLUP_LOCK = 7303

interface Window {
  experiment_id: string
  from_ts: string
  to_ts: string
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v))

/** Adds (sign 1) or subtracts (-1) the counts of the step rows in `rows` to funnel_step_days. */
const addToDays = (rows: string, sign: 1 | -1) => `
  INSERT INTO funnel_step_days AS d (day, page, step, next, brand, source, device, variant, reached, submitted, visitors)
  SELECT (first_ts AT TIME ZONE 'UTC')::date, page, step, next, brand, source, device, variant,
         ${sign} * count(*)::int, ${sign} * (count(*) FILTER (WHERE submitted))::int, ${sign} * (count(*) FILTER (WHERE entry))::int
  FROM ${rows} GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT (page, day, step, next, brand, source, device, variant) DO UPDATE
    SET reached = d.reached + excluded.reached, submitted = d.submitted + excluded.submitted,
        visitors = d.visitors + excluded.visitors`

/** Adds (1) or subtracts (-1) the units in `rows` to experiment_unit_days of the window $1–$3. */
const addToUnitDays = (rows: string, sign: 1 | -1) => `
  INSERT INTO experiment_unit_days AS d (experiment_id, from_ts, to_ts, day, variants, variant, bot, brand, paid,
    utm_source, lead, started, steps, n)
  SELECT $1, $2::timestamptz, $3::timestamptz, (first_ts AT TIME ZONE 'UTC')::date, least(variants, 2),
         COALESCE(variant, ''), bot, brand, paid, utm_source, lead, started, COALESCE(steps, 0), ${sign} * count(*)::int
  FROM ${rows} GROUP BY 4, 5, 6, 7, 8, 9, 10, 11, 12, 13
  ON CONFLICT (experiment_id, from_ts, to_ts, day, variants, variant, bot, brand, paid, utm_source, lead, started, steps)
    DO UPDATE SET n = d.n + excluded.n`

/** Recomputes the rollup rows of `browsers` (within a transaction holding the rollup lock). */
async function recompute(tx: Queryable, browsers: string[]): Promise<void> {
  // The rows go, their counts come off the days; the recomputed rows come in, their counts go on.
  await tx.query(
    `WITH old AS (DELETE FROM funnel_step_visits WHERE anonymous_id = ANY($1::text[]) RETURNING *)
     ${addToDays('old', -1)}`,
    [browsers],
  )
  await tx.query(
    `WITH new AS (
       INSERT INTO funnel_step_visits (${FUNNEL_STEP_COLUMNS})
       ${funnelStepRowsSql('anonymous_id = ANY($1::text[])')}
       RETURNING *)
     ${addToDays('new', 1)}`,
    [browsers],
  )
  await tx.query('DELETE FROM funnel_step_days WHERE reached = 0 AND submitted = 0 AND visitors = 0')
  const windows = await tx.query<Window>('SELECT experiment_id, from_ts, to_ts FROM experiment_windows')
  for (const w of windows.rows) {
    const key = [w.experiment_id, iso(w.from_ts), iso(w.to_ts)]
    await tx.query(
      `WITH old AS (
         DELETE FROM experiment_units
         WHERE experiment_id = $1 AND from_ts = $2 AND to_ts = $3 AND anonymous_id = ANY($4::text[])
         RETURNING *)
       ${addToUnitDays('old', -1)}`,
      [...key, browsers],
    )
    await tx.query(
      `WITH new AS (
         INSERT INTO experiment_units (experiment_id, from_ts, to_ts, ${EXPERIMENT_UNIT_COLUMNS})
         SELECT $1, $2::timestamptz, $3::timestamptz, ${EXPERIMENT_UNIT_COLUMNS} FROM (${experimentUnitsSql(true)}) u
         RETURNING *)
       ${addToUnitDays('new', 1)}`,
      [...key, browsers],
    )
  }
  if (windows.rows.length) await tx.query('DELETE FROM experiment_unit_days WHERE n = 0')
}

/**
 * Catches up: recomputes every marked browser, a batch per transaction, until no mark is left (or
 * `maxBatches` were done). Returns the browsers recomputed.
 */
export async function refreshRollups(
  db: Db,
  batch = ROLLUP_BATCH_BROWSERS,
  maxBatches = Number.POSITIVE_INFINITY,
): Promise<number> {
  let total = 0
  for (let i = 0; i < maxBatches; i++) {
    const n = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [ROLLUP_LOCK])
      const marked = await tx.query<{ anonymous_id: string }>(
        `DELETE FROM rollup_dirty WHERE anonymous_id IN (
           SELECT anonymous_id FROM rollup_dirty ORDER BY anonymous_id LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING anonymous_id`,
        [batch],
      )
      if (marked.rows.length)
        await recompute(
          tx,
          marked.rows.map((r) => r.anonymous_id),
        )
      return marked.rows.length
    })
    total += n
    if (n < batch) break
  }
  return total
}

/**
 * Rebuilds the drop-off rollup from all events in one pass (after a bulk load, or to check): clears the
 * marks taken into account, then the step rows and the daily table. Experiment windows are rebuilt on
 * their next ask. Holds the rollup lock, so the job waits.
 */
export async function rebuildRollups(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [ROLLUP_LOCK])
    await tx.query('DELETE FROM rollup_dirty')
    await tx.query('DELETE FROM funnel_step_days')
    await tx.query('DELETE FROM funnel_step_visits')
    await tx.query('DELETE FROM experiment_windows')
    await tx.query(`WITH new AS (
       INSERT INTO funnel_step_visits (${FUNNEL_STEP_COLUMNS}) ${funnelStepRowsSql('true')} RETURNING *)
     ${addToDays('new', 1)}`)
  })
}

/**
 * The key of the window experiment_units keeps for [from, to): a window still open (its end in the
 * future) is kept open-ended, so the current phase is one window however often it is asked.
 */
export function windowKey(experimentId: string, from: Date, to: Date, now = Date.now()) {
  return {
    experimentId,
    from: from.toISOString(),
    to: to.getTime() > now ? 'infinity' : to.toISOString(),
  }
}

/**
 * Experiment results from the rollup: the window is built from the events the first time it is asked
 * (under the rollup lock, so no mark can slip between the build and the job), then kept up to date.
 */
export async function experimentTotals(
  db: Db,
  experimentId: string,
  from: Date,
  to: Date,
  dimension?: ExperimentDimension,
): Promise<ExperimentTotals> {
  const key = windowKey(experimentId, from, to)
  await refreshRollups(db)
  const known = await db.query(
    'SELECT 1 FROM experiment_windows WHERE experiment_id = $1 AND from_ts = $2 AND to_ts = $3',
    [key.experimentId, key.from, key.to],
  )
  if (!known.rows.length)
    await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [ROLLUP_LOCK])
      const created = await tx.query(
        `INSERT INTO experiment_windows (experiment_id, from_ts, to_ts) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING RETURNING 1`,
        [key.experimentId, key.from, key.to],
      )
      if (created.rows.length)
        await tx.query(
          `WITH new AS (
             INSERT INTO experiment_units (experiment_id, from_ts, to_ts, ${EXPERIMENT_UNIT_COLUMNS})
             SELECT $1, $2::timestamptz, $3::timestamptz, ${EXPERIMENT_UNIT_COLUMNS} FROM (${experimentUnitsSql(false)}) u
             RETURNING *)
           ${addToUnitDays('new', 1)}`,
          [key.experimentId, key.from, key.to],
        )
    })
  return experimentTotalsOfUnits(db, key, dimension)
}
