/**
 * Event ingest: acknowledged events per second and latency for concurrent clients posting to
 * POST /api/event/create, against PGlite (in a data folder) and PostgreSQL, side by side. The app runs
 * in this process (as in production: one Node process per server); autocannon drives it from a child
 * process, so the load generator does not share the server's event loop. Every request carries a
 * fresh event id (autocannon's [<id>] replacement), so each is a real insert.
 *   npm run bench -- events      (BENCH_SECONDS, BENCH_CONNECTIONS to change the load)
 */

import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
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
    const result = await loadTest(port)
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

interface LoadResult {
  '2xx': number
  non2xx: number
  errors: number
  timeouts: number
  latency: { p50: number; p99: number }
}

function loadTest(port: number): Promise<LoadResult> {
  const body = JSON.stringify(sampleEvent('[<id>]'))
  const args = [
    join(import.meta.dirname, '..', '..', 'node_modules', 'autocannon', 'autocannon.js'),
    '--connections',
    String(CONNECTIONS),
    '--duration',
    String(SECONDS),
    '--method',
    'POST',
    '--headers',
    'content-type=application/json',
    '--body',
    body,
    '--idReplacement',
    '--json',
    `http://127.0.0.1:${port}/api/event/create`,
  ]
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] })
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      try {
        resolve(JSON.parse(out) as LoadResult)
      } catch {
        reject(new Error(`autocannon exited with ${code} without a result`))
      }
    })
  })
}

export default async function run(): Promise<void> {
  console.log(`${CONNECTIONS} concurrent clients, ${SECONDS} s each, one event per request`)
  // Figures are only comparable on a quiet machine: show how busy this one is.
  console.log(`load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`)
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
