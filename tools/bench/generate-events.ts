/**
 * Generated events for the experiment-results and drop-off benches: one INSERT … SELECT over
 * generate_series per chunk (no row crosses the wire), into the partitioned events table, firing the
 * rollup marks as real ingest does. Ten events per browser:
 *   - a third of the browsers are exposed to `bench-exp` (control or question) on every event but the
 *     last; one in seven ends on the thank-you page;
 *   - every other browser walks the `bench-quiz` funnel page: views and submits of its first d steps
 *     (d = 1…5), leaving before the last submit now and then; a full walk ends with funnelCompleted;
 *   - one in fifty is flagged as a bot; utm_source, user agent (mobile/desktop) and brand vary.
 * Browsers are spread over BENCH_MONTHS months, so the rows span that many monthly partitions.
 */
import type { Db } from '../../server/store/db'
import { ensureEventPartitions } from '../../server/store/event-partitions'

export const BENCH_FUNNEL_PAGE = 'bench-quiz'
export const BENCH_FUNNEL_STEPS = ['zip', 'medicare', 'medicaid', 'name', 'contact']
export const BENCH_EXPERIMENT = 'bench-exp'
export const BENCH_START = Date.parse('2026-05-01T00:00:00Z')
export const BENCH_MONTHS = 4
const PER_BROWSER = 10
/** Rows per INSERT statement. */
const CHUNK = 1_000_000

/** How many events a bench generates: BENCH_EVENTS (e.g. 10000000), default 1 M. */
export function benchEvents(): number {
  const n = Number(process.env.BENCH_EVENTS ?? 1_000_000)
  if (!Number.isInteger(n) || n < 10_000) throw new Error('BENCH_EVENTS: a whole number ≥ 10000')
  return n
}

export async function generateEvents(db: Db, events: number): Promise<void> {
  const months: number[] = []
  for (let m = 0; m <= BENCH_MONTHS; m++) {
    const d = new Date(BENCH_START)
    months.push(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + m, 1))
  }
  await ensureEventPartitions(db, months)
  const browsers = Math.floor(events / PER_BROWSER)
  const spanS = ((BENCH_MONTHS * 30 * 86_400) / browsers).toFixed(3)
  const steps = `ARRAY[${BENCH_FUNNEL_STEPS.map((s) => `'${s}'`).join(', ')}]`
  for (let from = 0; from < events; from += CHUNK) {
    const to = Math.min(events, from + CHUNK) - 1
    await db.query(
      `INSERT INTO events (id, type, name, brand_id, session_id, anonymous_id, user_id, paid, client_ts, received_at, ip, body)
       SELECT 'e' || n, type, name, brand, 's' || b, 'a' || b, NULL, false, ts, ts, NULL,
              jsonb_build_object(
                'type', type, 'name', name, 'category', category, 'timestamp', ts,
                'properties', jsonb_build_object(
                  'eventId', 'e' || n,
                  'userAgent', CASE WHEN b % 3 = 0 THEN 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile/15E148'
                                    ELSE 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120' END,
                  'session', jsonb_build_object('paid', false, 'urlParams',
                     CASE b % 4 WHEN 0 THEN '{"utm_source":"google"}'::jsonb WHEN 1 THEN '{"utm_source":"facebook"}'::jsonb
                                ELSE '{}'::jsonb END),
                  'bot', jsonb_build_object('bot', b % 50 = 7),
                  'stepName', CASE WHEN funnel AND k < 2 * d THEN (${steps})[k / 2 + 1] END,
                  'stepNumber', CASE WHEN funnel AND k < 2 * d AND k % 2 = 1 THEN k / 2 + 1 END,
                  'page', jsonb_strip_nulls(jsonb_build_object(
                    'name', pagename,
                    'stepName', CASE WHEN funnel AND k < 2 * d AND k % 2 = 0 THEN (${steps})[k / 2 + 1] END,
                    'experiment', CASE WHEN b % 3 = 0 AND k < ${PER_BROWSER - 1}
                      THEN jsonb_build_object('id', '${BENCH_EXPERIMENT}', 'variant',
                             CASE WHEN b % 2 = 0 THEN 'control' ELSE 'question' END) END))))
       FROM (
         SELECT n, b, k, d, funnel, ts,
                CASE WHEN funnel AND k < 2 * d AND k % 2 = 1 AND NOT (k = 2 * d - 1 AND b % 4 = 3) THEN 'track'
                     WHEN funnel AND d = 5 AND k = 9 THEN 'track'
                     ELSE 'page' END AS type,
                CASE WHEN funnel AND d = 5 AND k = 9 THEN 'funnelCompleted'
                     WHEN funnel AND k < 2 * d AND k % 2 = 1 AND NOT (k = 2 * d - 1 AND b % 4 = 3) THEN 'formStepSubmitted'
                     WHEN funnel AND k < 2 * d THEN '${BENCH_FUNNEL_PAGE}'
                     WHEN k = 9 AND b % 7 = 0 THEN 'thank-you'
                     ELSE 'grocery' END AS name,
                CASE WHEN k = 9 AND b % 7 = 0 AND NOT (funnel AND d = 5) THEN 'thank-you' ELSE 'landing' END AS category,
                CASE b % 3 WHEN 0 THEN 'm10' WHEN 1 THEN 'mpa' ELSE 'bes' END AS brand,
                CASE WHEN funnel AND (k < 2 * d OR (d = 5 AND k = 9)) THEN '${BENCH_FUNNEL_PAGE}'
                     WHEN k = 9 AND b % 7 = 0 THEN 'thank-you' ELSE 'grocery' END AS pagename
         FROM (SELECT n, n / ${PER_BROWSER} AS b, n % ${PER_BROWSER} AS k,
                      1 + ((n / ${PER_BROWSER}) * 7 % 5) AS d, (n / ${PER_BROWSER}) % 2 = 0 AS funnel,
                      timestamptz '${new Date(BENCH_START).toISOString()}'
                        + (n / ${PER_BROWSER}) * ${spanS} * interval '1 second' + (n % ${PER_BROWSER}) * interval '1 minute' AS ts
               FROM generate_series(${from}, ${to}) AS n) g) s`,
    )
  }
}
