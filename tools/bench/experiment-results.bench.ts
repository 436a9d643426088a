/**
 * npm run bench -- experiment-results: the results query of an experiment (server/store/experiment-
 * results.ts) over one million stored events on PostgreSQL. Target (issue 16): ≤ 500 ms.
 */
import { setLogLevel } from '../../server/log'
import { experimentTotals } from '../../server/store/experiment-results'
import { openStore } from '../../server/store/open-store'
import { dropPostgresSchema, uniquePostgresUrl } from '../../server/store/test-databases'

const EVENTS = 1_000_000
/** Events per browser: 100,000 browsers. */
const PER_BROWSER = 10

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
    const times: number[] = []
    let last: Awaited<ReturnType<typeof experimentTotals>> | undefined
    for (let i = 0; i < 4; i++) {
      const t = performance.now()
      last = await experimentTotals(store.db, 'bench-exp', new Date('2026-10-01'), new Date('2026-12-31'))
      times.push(performance.now() - t)
    }
    const users = last!.variants.reduce((s, v) => s + v.users, 0)
    console.log(
      `seeded ${EVENTS.toLocaleString('en-US')} events in ${Math.round(seedMs / 1000)} s; ${users} browsers exposed`,
    )
    console.table([
      { what: 'results query, first run', ms: Math.round(times[0]), target: '≤ 500' },
      {
        what: 'results query, warm (median of 3)',
        ms: Math.round([...times.slice(1)].sort((a, b) => a - b)[1]),
        target: '≤ 500',
      },
    ])
    console.table(last!.variants)
  } finally {
    await store.close()
    await dropPostgresSchema(pg.schema)
  }
}
