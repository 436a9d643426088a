/**
 * Event ingest: acknowledged events per second and latency for concurrent clients posting to
 * POST /api/event/create, against PGlite (in a data folder) and PostgreSQL, side by side. The app runs
 * in this process (as in production: one Node process per server); autocannon drives it.
 *   npm run bench -- events      (BENCH_SECONDS, BENCH_CONNECTIONS to change the load)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { createApp } from '../../server/app'
import { loadConfig } from '../../server/config'
import { SnapshotStore } from '../../server/content/snapshot-store'
import { countEvents } from '../../server/store/event-store'
import { openStore, type Store } from '../../server/store/open-store'
import { sampleEvent } from '../../server/store/sample-event'
import { type DbKind, dropPostgresSchema, uniquePostgresUrl } from '../../server/store/test-databases'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)

interface Row {
  db: DbKind
  eventsPerSecond: number
  p50: number
  p99: number
  failed: number
  stored: number
}

async function measure(db: DbKind): Promise<Row> {
  const dir = db === 'pglite' ? mkdtempSync(join(tmpdir(), 'fw-bench-')) : null
  const pg = db === 'postgres' ? uniquePostgresUrl('fw_bench') : null
  let store: Store | undefined
  let server: Server | undefined
  try {
    store = await openStore({ databaseUrl: pg?.url ?? null, dataDir: dir })
    const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error' })
    const snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
    server = createApp({ config, snapshots, store }).listen(0, '127.0.0.1')
    await new Promise((r) => server!.once('listening', r))
    const port = (server.address() as AddressInfo).port
    const result = await autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          method: 'POST',
          path: '/api/event/create',
          headers: { 'content-type': 'application/json' },
          // A fresh event id per request, so every request is a real insert (not a duplicate).
          setupRequest: (req) => ({ ...req, body: JSON.stringify(sampleEvent()) }),
        },
      ],
    })
    return {
      db,
      eventsPerSecond: Math.round(result['2xx'] / SECONDS),
      p50: result.latency.p50,
      p99: result.latency.p99,
      failed: result.non2xx + result.errors + result.timeouts,
      stored: await countEvents(store.db),
    }
  } finally {
    await new Promise((r) => (server ? server.close(r) : r(null)))
    await store?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
    if (pg) await dropPostgresSchema(pg.schema)
  }
}

export default async function run(): Promise<void> {
  console.log(`${CONNECTIONS} concurrent clients, ${SECONDS} s each, one event per request`)
  const rows: Row[] = []
  for (const db of ['pglite', 'postgres'] as const) rows.push(await measure(db))
  console.log(
    ['database', 'events/s acked', 'p50 ms', 'p99 ms', 'failed', 'rows stored']
      .map((h, i) => (i === 0 ? h.padEnd(10) : h.padStart(15)))
      .join(''),
  )
  for (const r of rows) {
    console.log(
      [
        r.db.padEnd(10),
        ...[r.eventsPerSecond, r.p50, r.p99, r.failed, r.stored].map((v) => String(v).padStart(15)),
      ].join(''),
    )
  }
  const [a, b] = rows
  console.log(
    `PostgreSQL / PGlite throughput: ${(b.eventsPerSecond / Math.max(a.eventsPerSecond, 1)).toFixed(2)}×`,
  )
}
