/**
 * What a browser did on a funnel page, step by step (issue 29, docs/decisions/0313): one row per
 * browser, funnel page and step it reached (viewed or submitted), with whether it submitted the step
 * and where it went after its last moment on it — another step's name, COMPLETED or LEFT — the
 * dimensions of its first event on the page, and `entry`: true on exactly one row per browser and
 * page (the step of its first event there), so browsers are counted without a DISTINCT. Browsers with a bot-flagged event on the page are left
 * out, as experiment results leave them out. Submissions posted without JavaScript (serverSide) are
 * the same events and count alike. A browser's events are ordered by time, then by `seq` (the
 * order they were stored in, migration 0019): the events one request records in the same millisecond
 * (a step's view, its submit and the completion) keep their order, never a random id's.
 *
 * The same SQL builds the rollup rows for a set of browsers (server/store/rollups.ts) and answers the
 * raw query over a page set and date range: the rollup equals the raw query by construction, and the
 * tests check it on random data.
 */

/** The `next` of a step after which the funnel finished at its destination (funnelCompleted). */
export const COMPLETED = '(completed)'
/** The `next` of a step after which the browser did nothing more on the page. */
export const LEFT = '(left)'
/** A dimension value the event did not carry. */
export const NONE = '(none)'

/** Device class from the user agent the event carried. */
export const DEVICE_SQL = (ua: string) => `CASE
    WHEN ${ua} IS NULL OR ${ua} = '' THEN '${NONE}'
    WHEN ${ua} ~* '(ipad|tablet|kindle|silk|playbook)' OR (${ua} ~* 'android' AND ${ua} !~* 'mobile') THEN 'tablet'
    WHEN ${ua} ~* '(mobi|iphone|ipod|android|blackberry|opera mini|windows phone)' THEN 'mobile'
    ELSE 'desktop' END`

/**
 * The step rows, for the events `scope` selects (a condition on `events`). `range` filters the rows by
 * the browser's first event on the page (a condition on first_ts), or nothing.
 */
export function funnelStepRowsSql(scope: string, range = 'true'): string {
  return `
  WITH ev AS MATERIALIZED (
    SELECT anonymous_id AS a,
           CASE WHEN type = 'page' THEN name ELSE body #>> '{properties,page,name}' END AS page,
           client_ts AS ts, seq, id,
           CASE WHEN type = 'page' THEN body #>> '{properties,page,stepName}'
                WHEN name = 'formStepSubmitted' THEN body #>> '{properties,stepName}' END AS step,
           (type = 'track' AND name = 'formStepSubmitted') AS submit,
           bot, brand_id, experiment_variant,
           body #>> '{properties,session,urlParams,utm_source}' AS src,
           body #>> '{properties,userAgent}' AS ua
    FROM events
    WHERE (${scope})
      AND ((type = 'page' AND COALESCE(body #>> '{properties,page,stepName}', '') <> '')
           OR (type = 'track' AND name IN ('formStepSubmitted', 'funnelCompleted')))),
  moves AS (
    SELECT a, page, step, submit,
           lead(COALESCE(step, '${COMPLETED}')) OVER journey AS nxt,
           row_number() OVER (PARTITION BY a, page, step ORDER BY ts DESC, seq DESC, id DESC) AS k,
           first_value(ts) OVER journey AS first_ts,
           first_value(step) OVER journey AS first_step,
           first_value(brand_id) OVER journey AS brand_id,
           first_value(src) OVER journey AS src,
           first_value(ua) OVER journey AS ua,
           first_value(experiment_variant) OVER journey AS experiment_variant,
           bool_or(bot) OVER (PARTITION BY a, page) AS bot
    FROM ev WHERE page IS NOT NULL
    WINDOW journey AS (PARTITION BY a, page ORDER BY ts, seq, id)),
  steps AS (
    SELECT a, page, step, bool_or(submit) AS submitted,
           max(CASE WHEN k = 1 THEN COALESCE(nxt, '${LEFT}') END) AS next,
           min(first_ts) AS first_ts, min(brand_id) AS brand_id, min(src) AS src, min(ua) AS ua,
           min(experiment_variant) AS experiment_variant, bool_or(bot) AS bot,
           bool_or(step = first_step) AS entry
    FROM moves WHERE step IS NOT NULL AND step <> '' GROUP BY a, page, step)
  SELECT j.a AS anonymous_id, j.page, j.step, j.first_ts,
         COALESCE(NULLIF(j.brand_id, ''), '${NONE}') AS brand,
         COALESCE(NULLIF(j.src, ''), '${NONE}') AS source,
         ${DEVICE_SQL('j.ua')} AS device,
         COALESCE(NULLIF(j.experiment_variant, ''), '${NONE}') AS variant,
         j.submitted, j.next, j.entry
  FROM steps j
  WHERE NOT j.bot AND (${range})`
}

export const FUNNEL_STEP_COLUMNS =
  'anonymous_id, page, step, first_ts, brand, source, device, variant, submitted, next, entry'
