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

export interface ExperimentTotals {
  variants: VariantTotals[]
  /** Browsers left out because they saw more than one variant. */
  multipleExposures: number
  /** Browsers left out as bots. */
  bots: number
  /** Exposures per UTC day and variant (a visual sample-ratio check). */
  daily: { day: string; variant: string; users: number }[]
}

/**
 * One statement: the exposures once (materialised), then per-variant totals, what was left out and
 * the daily exposures as rows of three kinds. A browser's variant is min(variant): browsers with more
 * than one are left out anyway.
 */
const RESULTS_SQL = `
  WITH exposed AS MATERIALIZED (
    SELECT anonymous_id,
           min(client_ts) AS first_ts,
           count(DISTINCT body #>> '{properties,page,experiment,variant}')::int AS variants,
           min(body #>> '{properties,page,experiment,variant}') AS variant,
           bool_or(COALESCE(body #>> '{properties,bot,bot}', 'false') = 'true') AS bot
    FROM events
    WHERE body #> '{properties,page,experiment}' IS NOT NULL
      AND body #>> '{properties,page,experiment,id}' = $1
      AND client_ts >= $2 AND client_ts < $3
    GROUP BY anonymous_id),
  units AS MATERIALIZED (SELECT anonymous_id, first_ts, variant FROM exposed WHERE variants = 1 AND NOT bot),
  conv AS (
    SELECT u.anonymous_id,
           bool_or((e.type = 'page' AND e.body->>'category' = 'thank-you')
                   OR (e.type = 'track' AND e.name = 'funnelCompleted')) AS lead,
           bool_or(e.type = 'track' AND e.name = 'formStepSubmitted'
                   AND e.body #>> '{properties,stepNumber}' = '1') AS started
    FROM units u
    JOIN events e ON e.anonymous_id = u.anonymous_id AND e.client_ts >= u.first_ts
                 AND e.client_ts < u.first_ts + interval '${EXPERIMENT_CONVERSION_WINDOW_DAYS} days'
    WHERE (e.type = 'page' AND e.body->>'category' = 'thank-you')
       OR (e.type = 'track' AND e.name IN ('funnelCompleted', 'formStepSubmitted'))
    GROUP BY u.anonymous_id)
  SELECT 'variant' AS kind, u.variant, NULL AS day, count(*)::int AS users,
         (count(*) FILTER (WHERE c.lead))::int AS leads, (count(*) FILTER (WHERE c.started))::int AS started
  FROM units u LEFT JOIN conv c USING (anonymous_id) GROUP BY u.variant
  UNION ALL
  SELECT 'left', NULL, NULL, (count(*) FILTER (WHERE variants > 1))::int,
         (count(*) FILTER (WHERE bot AND variants = 1))::int, 0 FROM exposed
  UNION ALL
  SELECT 'day', variant, to_char(first_ts AT TIME ZONE 'UTC', 'YYYY-MM-DD'), count(*)::int, 0, 0
  FROM units GROUP BY 2, 3`

export async function experimentTotals(
  db: Queryable,
  experimentId: string,
  from: Date,
  to: Date,
): Promise<ExperimentTotals> {
  const r = await db.query<{
    kind: 'variant' | 'left' | 'day'
    variant: string | null
    day: string | null
    users: number
    leads: number
    started: number
  }>(RESULTS_SQL, [experimentId, from.toISOString(), to.toISOString()])
  const left = r.rows.find((x) => x.kind === 'left')
  const byName = (a: { variant: string | null }, b: { variant: string | null }) =>
    (a.variant ?? '').localeCompare(b.variant ?? '')
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
  }
}
