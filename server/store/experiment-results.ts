/**
 * Experiment results from the events store (CONTROL-CENTER §4, docs/decisions/0900-experiment-results):
 * one aggregate per experiment and phase. The unit is the browser (`anonymous_id`): its exposure is
 * its first event under the experiment in the phase; bots and browsers that saw more than one variant
 * are left out and counted. A lead is a thank-you pageview or a `funnelCompleted` event within the
 * conversion window after exposure; "started" is the first funnel step submitted.
 */
import type { Queryable } from './db'

/** How long after exposure a lead still counts. */
export const EXPERIMENT_CONVERSION_WINDOW_DAYS = 7

export interface VariantTotals {
  variant: string
  users: number
  leads: number
  started: number
}

/** A drill-down dimension: what a browser's first exposure says about it. */
export const EXPERIMENT_DIMENSIONS = ['brand', 'paid', 'utm_source'] as const
export type ExperimentDimension = (typeof EXPERIMENT_DIMENSIONS)[number]

/** The highest funnel step counted in the per-step reach (a longer funnel's later steps fold into it). */
export const EXPERIMENT_MAX_STEP = 20

export interface ExperimentTotals {
  variants: VariantTotals[]
  /** Browsers left out because they saw more than one variant. */
  multipleExposures: number
  /** Browsers left out as bots. */
  bots: number
  /** Exposures per UTC day and variant (a visual sample-ratio check). */
  daily: { day: string; variant: string; users: number }[]
  /**
   * Per-step reach: per variant, how many browsers submitted funnel step n or a later one
   * (`formStepSubmitted.stepNumber`), n = 1 … the highest step any browser reached.
   */
  steps: { variant: string; step: number; users: number }[]
  /** With a dimension: the same totals per segment (the value of the browser's first exposure). */
  segments?: (VariantTotals & { segment: string })[]
}

/**
 * The segment of a browser: the dimension's value on its first exposure, read from that one event
 * (fixed list: no user input in SQL).
 */
const SEGMENT_SQL: Record<ExperimentDimension, string> = {
  brand: `COALESCE(e.brand_id, '(none)')`,
  paid: `CASE WHEN e.paid THEN 'paid' WHEN e.paid IS NULL THEN '(unknown)' ELSE 'organic' END`,
  utm_source: `COALESCE(NULLIF(e.body #>> '{properties,session,urlParams,utm_source}', ''), '(none)')`,
}

/**
 * One statement: the exposures once (materialised; without a dimension an index-only scan of
 * events_exposure_idx over the generated columns of migration 0007), then per-variant totals, what was left out, the
 * daily exposures, the per-step reach and (with a dimension) the per-segment totals, as rows of
 * several kinds. A browser's variant is min(variant): browsers with more than one are left out anyway.
 */
const resultsSql = (dimension: ExperimentDimension | 'none') => `
  WITH exposed AS MATERIALIZED (
    SELECT anonymous_id,
           min(client_ts) AS first_ts,
           count(DISTINCT experiment_variant)::int AS variants,
           min(experiment_variant) AS variant,
           bool_or(bot) AS bot
    FROM events
    WHERE experiment_id = $1 AND client_ts >= $2 AND client_ts < $3
    GROUP BY anonymous_id),
  units AS MATERIALIZED (
    SELECT x.anonymous_id, x.first_ts, x.variant, ${
      dimension === 'none'
        ? 'NULL::text'
        : `(SELECT ${SEGMENT_SQL[dimension]} FROM events e
            WHERE e.experiment_id = $1 AND e.anonymous_id = x.anonymous_id AND e.client_ts = x.first_ts LIMIT 1)`
    } AS segment
    FROM exposed x WHERE variants = 1 AND NOT bot),
  conv AS MATERIALIZED (
    SELECT u.anonymous_id, u.variant, u.segment,
           bool_or((e.type = 'page' AND e.body->>'category' = 'thank-you')
                   OR (e.type = 'track' AND e.name = 'funnelCompleted')) AS lead,
           bool_or(e.type = 'track' AND e.name = 'formStepSubmitted'
                   AND e.body #>> '{properties,stepNumber}' = '1') AS started,
           max(CASE WHEN e.type = 'track' AND e.name = 'formStepSubmitted'
                     AND jsonb_typeof(e.body #> '{properties,stepNumber}') = 'number'
                    THEN least(${EXPERIMENT_MAX_STEP}, (e.body #>> '{properties,stepNumber}')::numeric::int) END) AS steps
    FROM units u
    LEFT JOIN events e ON e.anonymous_id = u.anonymous_id AND e.client_ts >= u.first_ts
                 AND e.client_ts < u.first_ts + interval '${EXPERIMENT_CONVERSION_WINDOW_DAYS} days'
                 AND ((e.type = 'page' AND e.body->>'category' = 'thank-you')
                      OR (e.type = 'track' AND e.name IN ('funnelCompleted', 'formStepSubmitted')))
    GROUP BY u.anonymous_id, u.variant, u.segment)
  SELECT 'variant' AS kind, variant, NULL AS day, count(*)::int AS users,
         (count(*) FILTER (WHERE lead))::int AS leads, (count(*) FILTER (WHERE started))::int AS started
  FROM conv GROUP BY variant
  UNION ALL
  SELECT 'left', NULL, NULL, (count(*) FILTER (WHERE variants > 1))::int,
         (count(*) FILTER (WHERE bot AND variants = 1))::int, 0 FROM exposed
  UNION ALL
  SELECT 'day', variant, to_char(first_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD'), count(*)::int, 0, 0
  FROM units GROUP BY 2, 3
  UNION ALL
  SELECT 'step', variant, steps::text, count(*)::int, 0, 0 FROM conv WHERE steps >= 1 GROUP BY 2, 3${
    dimension === 'none'
      ? ''
      : `
  UNION ALL
  SELECT 'segment', variant, segment, count(*)::int,
         (count(*) FILTER (WHERE lead))::int, (count(*) FILTER (WHERE started))::int
  FROM conv GROUP BY 2, 3`
  }`

type TotalsRow = {
  kind: 'variant' | 'left' | 'day' | 'step' | 'segment'
  variant: string | null
  day: string | null
  users: number
  leads: number
  started: number
}

/** The results straight from the events (the query the rollup started from; benches and tests compare). */
export async function experimentTotalsRaw(
  db: Queryable,
  experimentId: string,
  from: Date,
  to: Date,
  dimension?: ExperimentDimension,
): Promise<ExperimentTotals> {
  const r = await db.query<TotalsRow>(resultsSql(dimension ?? 'none'), [
    experimentId,
    from.toISOString(),
    to.toISOString(),
  ])
  return totalsOf(r.rows, dimension)
}

/**
 * One experiment unit per browser exposed in [$2, $3) ($4: only these browsers), as decision 0900
 * defines it: first exposure, variants seen, bot, the three drill-down values of the first exposure,
 * and — for a unit counted (one variant, no bot) — lead, started and the furthest step within the
 * conversion window. The rows of experiment_units (docs/decisions/0312).
 */
export function experimentUnitsSql(onlyBrowsers: boolean): string {
  return `
  WITH exposed AS MATERIALIZED (
    SELECT anonymous_id, min(client_ts) AS first_ts,
           count(DISTINCT experiment_variant)::int AS variants,
           min(experiment_variant) AS variant, bool_or(bot) AS bot
    FROM events
    WHERE experiment_id = $1 AND client_ts >= $2 AND client_ts < $3${
      onlyBrowsers ? ' AND anonymous_id = ANY($4::text[])' : ''
    }
    GROUP BY anonymous_id)
  SELECT x.anonymous_id, x.first_ts, x.variants, x.variant, x.bot,
         s.brand, s.paid, s.utm_source,
         COALESCE(c.lead, false) AS lead, COALESCE(c.started, false) AS started, c.steps
  FROM exposed x
  CROSS JOIN LATERAL (
    SELECT ${SEGMENT_SQL.brand} AS brand, ${SEGMENT_SQL.paid} AS paid, ${SEGMENT_SQL.utm_source} AS utm_source
    FROM events e
    WHERE e.experiment_id = $1 AND e.anonymous_id = x.anonymous_id AND e.client_ts = x.first_ts LIMIT 1) s
  LEFT JOIN LATERAL (
    SELECT bool_or((e.type = 'page' AND e.body->>'category' = 'thank-you')
                   OR (e.type = 'track' AND e.name = 'funnelCompleted')) AS lead,
           bool_or(e.type = 'track' AND e.name = 'formStepSubmitted'
                   AND e.body #>> '{properties,stepNumber}' = '1') AS started,
           max(CASE WHEN e.type = 'track' AND e.name = 'formStepSubmitted'
                     AND jsonb_typeof(e.body #> '{properties,stepNumber}') = 'number'
                    THEN least(${EXPERIMENT_MAX_STEP}, (e.body #>> '{properties,stepNumber}')::numeric::int) END) AS steps
    FROM events e
    WHERE x.variants = 1 AND NOT x.bot
      AND e.anonymous_id = x.anonymous_id AND e.client_ts >= x.first_ts
      AND e.client_ts < x.first_ts + interval '${EXPERIMENT_CONVERSION_WINDOW_DAYS} days'
      AND ((e.type = 'page' AND e.body->>'category' = 'thank-you')
           OR (e.type = 'track' AND e.name IN ('funnelCompleted', 'formStepSubmitted')))) c ON true`
}

export const EXPERIMENT_UNIT_COLUMNS =
  'anonymous_id, first_ts, variants, variant, bot, brand, paid, utm_source, lead, started, steps'

/**
 * The same rows as the raw query, from the units of one window counted per day and value
 * (experiment_unit_days, kept with experiment_units by the rollup job).
 */
export async function experimentTotalsOfUnits(
  db: Queryable,
  window: { experimentId: string; from: string; to: string },
  dimension?: ExperimentDimension,
): Promise<ExperimentTotals> {
  const segment = dimension
    ? dimension === 'brand'
      ? 'brand'
      : dimension === 'paid'
        ? 'paid'
        : 'utm_source'
    : 'NULL::text'
  const r = await db.query<TotalsRow>(
    `WITH u AS MATERIALIZED (
       SELECT day, variants, variant, bot, lead, started, steps, ${segment} AS segment, n
       FROM experiment_unit_days WHERE experiment_id = $1 AND from_ts = $2 AND to_ts = $3),
     units AS (SELECT * FROM u WHERE variants = 1 AND NOT bot)
     SELECT 'variant' AS kind, variant, NULL AS day, sum(n)::int AS users,
            COALESCE(sum(n) FILTER (WHERE lead), 0)::int AS leads, COALESCE(sum(n) FILTER (WHERE started), 0)::int AS started
     FROM units GROUP BY variant
     UNION ALL
     SELECT 'left', NULL, NULL, COALESCE(sum(n) FILTER (WHERE variants > 1), 0)::int,
            COALESCE(sum(n) FILTER (WHERE bot AND variants = 1), 0)::int, 0 FROM u
     UNION ALL
     SELECT 'day', variant, to_char(day, 'YYYY-MM-DD'), sum(n)::int, 0, 0 FROM units GROUP BY 2, 3
     UNION ALL
     SELECT 'step', variant, steps::text, sum(n)::int, 0, 0 FROM units WHERE steps >= 1 GROUP BY 2, 3${
       dimension
         ? `
     UNION ALL
     SELECT 'segment', variant, segment, sum(n)::int,
            COALESCE(sum(n) FILTER (WHERE lead), 0)::int, COALESCE(sum(n) FILTER (WHERE started), 0)::int
     FROM units GROUP BY 2, 3`
         : ''
     }`,
    [window.experimentId, window.from, window.to],
  )
  return totalsOf(r.rows, dimension)
}

function totalsOf(rows: TotalsRow[], dimension: ExperimentDimension | undefined): ExperimentTotals {
  const r = { rows }
  const left = r.rows.find((x) => x.kind === 'left')
  const byName = (a: { variant: string | null }, b: { variant: string | null }) =>
    (a.variant ?? '').localeCompare(b.variant ?? '')
  // Reach of step n: browsers whose furthest step is n or later.
  const furthest = r.rows.filter((x) => x.kind === 'step')
  const top = Math.max(0, ...furthest.map((x) => Number(x.day)))
  const steps: ExperimentTotals['steps'] = []
  for (const variant of [...new Set(furthest.map((x) => x.variant!))].sort())
    for (let step = 1; step <= top; step++)
      steps.push({
        variant,
        step,
        users: furthest
          .filter((x) => x.variant === variant && Number(x.day) >= step)
          .reduce((s, x) => s + x.users, 0),
      })
  return {
    variants: r.rows
      .filter((x) => x.kind === 'variant')
      .sort(byName)
      .map((x) => ({ variant: x.variant!, users: x.users, leads: x.leads, started: x.started })),
    multipleExposures: left?.users ?? 0,
    bots: left?.leads ?? 0,
    daily: r.rows
      .filter((x) => x.kind === 'day')
      .sort((a, b) => (a.day ?? '').localeCompare(b.day ?? '') || byName(a, b))
      .map((x) => ({ day: x.day!, variant: x.variant!, users: x.users })),
    steps,
    ...(dimension
      ? {
          segments: r.rows
            .filter((x) => x.kind === 'segment')
            .sort((a, b) => (a.day ?? '').localeCompare(b.day ?? '') || byName(a, b))
            .map((x) => ({
              segment: x.day ?? '(none)',
              variant: x.variant!,
              users: x.users,
              leads: x.leads,
              started: x.started,
            })),
        }
      : {}),
  }
}
