/**
 * npm run bench -- experiment-results: the results query of an experiment (server/store/experiment-
 * results.ts) over one million stored events on PostgreSQL. Target (issue 16): ≤ 500 ms, on the table
 * as it stands in service — after autovacuum's pass, which sets the visibility map the index-only
 * scan relies on (docs/decisions/0902). The figures right after the bulk load are printed too.
 */
import { setLogLevel } from '../../server/log'
import { experimentTotalsRaw as experimentTotals } from '../../server/store/experiment-results'
import { openStore } from '../../server/store/open-store'
import { dropPostgresSchema, uniquePostgresUrl } from '../../server/store/test-databases'

const EVENTS = 1_000_000
/** Events per browser: 100,000 browsers. */
const PER_BROWSER = 10
const EVENT_COUNT = EVENTS.toLocaleString('en-US')

export default async function run(): Promise<void> {
  setLogLevel('error')
  const pg = uniquePostgresUrl('fw_bench_results')
  const store = await openStore({ databaseUrl: pg.url, dataDir: null })
  try {
    const t0 = performance.now()
    // A third of the browsers land on the experiment's page: every event of theirs carries the
    // variant; one in 18 of them reaches the thank-you page.
    await store.db.query(
      `INSERT INTO events (id, type, name, brand_id, session_id, anonymous_id, user_id, paid, client_ts, received_at, ip, body)
       SELECT 'e' || n, CASE WHEN n % ${PER_BROWSER} = 9 AND b % 7 = 0 THEN 'page' ELSE (CASE WHEN n % 2 = 0 THEN 'page' ELSE 'track' END) END,
              CASE WHEN n % ${PER_BROWSER} = 9 AND b % 7 = 0 THEN 'thank-you' ELSE 'grocery' END,
              'm10', 's' || b, 'a' || b, NULL, false, ts, ts, NULL,
              jsonb_build_object(
                'type', 'page', 'name', 'grocery',
                'category', CASE WHEN n % ${PER_BROWSER} = 9 AND b % 7 = 0 THEN 'thank-you' ELSE 'landing' END,
                'properties', jsonb_build_object(
                  'eventId', 'e' || n,
                  'page', CASE WHEN b % 3 = 0 AND n % ${PER_BROWSER} < 9
                    THEN jsonb_build_object('name', 'grocery', 'experiment',
                           jsonb_build_object('id', 'bench-exp', 'variant', CASE WHEN b % 2 = 0 THEN 'control' ELSE 'question' END))
                    ELSE jsonb_build_object('name', 'grocery') END))
       FROM (SELECT n, n / ${PER_BROWSER} AS b,
                    timestamptz '2026-11-01' + (n / ${PER_BROWSER}) * interval '20 seconds' + (n % ${PER_BROWSER}) * interval '1 minute' AS ts
             FROM generate_series(0, ${EVENTS - 1}) AS n) s`,
    )
    await store.db.query('ANALYZE events')
    const seedMs = performance.now() - t0
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
    let last: Awaited<ReturnType<typeof experimentTotals>> | undefined
    const time = async (dimension?: 'utm_source') => {
      const t = performance.now()
      last = await experimentTotals(
        store.db,
        'bench-exp',
        new Date('2026-10-01'),
        new Date('2026-12-31'),
        dimension,
      )
      return performance.now() - t
    }
    // Right after a bulk load the visibility map is empty: the index-only scan still visits the heap.
    const first = await time()
    const fresh = median([await time(), await time(), await time()])
    // What the table looks like once autovacuum has passed (it does after inserts on PostgreSQL ≥ 13).
    await store.db.query('VACUUM ANALYZE events')
    const vacuumed = median([await time(), await time(), await time()])
    const byDimension = median([await time('utm_source'), await time('utm_source'), await time('utm_source')])
    await time()
    const users = last!.variants.reduce((s, v) => s + v.users, 0)
    console.log(`seeded ${EVENT_COUNT} events in ${Math.round(seedMs / 1000)} s; ${users} browsers exposed`)
    const row = (what: string, ms: number, steady = true) => ({
      what,
      ms: Math.round(ms),
      target: steady ? '≤ 500' : '(before autovacuum)',
      met: steady ? (ms <= 500 ? 'yes' : 'NO') : '—',
    })
    console.table([
      row('results query, first run right after the bulk load', first, false),
      row('results query, warm, before autovacuum (median of 3)', fresh, false),
      row('results query, warm, after VACUUM (median of 3)', vacuumed),
      row('results by utm_source, after VACUUM (median of 3)', byDimension),
    ])
    console.table(last!.variants)
  } finally {
    await store.close()
    await dropPostgresSchema(pg.schema)
  }
}
