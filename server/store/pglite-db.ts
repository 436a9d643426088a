import { spawn } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import type { Db } from './db'
import { onlyPostgresFiles, packSnapshot, readPostgresFiles } from './pglite-files'

/**
 * PostgreSQL settings of the embedded server. Its shared buffers live in the WebAssembly heap, which
 * never shrinks: PostgreSQL's default 128 MB made a fresh server ~150 MB bigger for no measurable gain
 * (PGlite is one connection, and the operating system caches the data files anyway). A handful of
 * connection slots: PGlite runs one backend. Issue 19, docs/decisions/0510.
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB', 'max_connections=4'] as const

/** PGlite's start parameters with ours. */
const startParams = (defaults: readonly string[]) => [
  ...defaults,
  ...PGLITE_SETTINGS.flatMap((s) => ['-c', s]),
]

/**
 * Creates a new data folder (initdb, then one start and stop of the server) in a child process. In the
 * server's own process initdb took a WebAssembly instance of its own (~450 MB, freed only at a full
 * collection) and left ~130 MB of resident memory behind for good (code optimised for initdb's work);
 * a child gives all of it back when it exits. Issue 19, docs/decisions/0510.
 */
function createDataDir(dataDir: string): Promise<void> {
  // A bare import in --eval code resolves from the working directory: this module's folder finds
  // node_modules, wherever the server was started from.
  const script = `
    const { PGlite } = await import('@electric-sql/pglite')
    const [dataDir, settings] = process.argv.slice(1)
    const pg = await PGlite.create(dataDir, { startParams: [...PGlite.defaultStartParams, ...JSON.parse(settings)] })
    await pg.close()`
  const child = spawn(
    process.execPath,
    ['--input-type=module', '--eval', script, resolve(dataDir), JSON.stringify(startParams([]))],
    { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  child.stdout.on('data', (d) => {
    output += d
  })
  child.stderr.on('data', (d) => {
    output += d
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(
              `creating the database failed (${signal ?? `exit ${code}`}): ${output.trim().slice(-2000)}`,
            ),
          ),
    )
  })
}

/**
 * Embedded PostgreSQL (PGlite) in a data folder, or in memory when no folder is given. PGlite is one
 * connection: it queues queries itself, and a transaction holds it until done (STACK.md point 10).
 */
export async function openPglite(dataDir?: string): Promise<Db> {
  // V8 optimises PostgreSQL's hot WebAssembly functions in the background, by default on every worker
  // thread at once; each thread's allocator keeps the compilers' freed memory for good (~35 MB
  // measured). One compilation task: the same optimised code, a little later. Issue 19,
  // docs/decisions/0510.
  setFlagsFromString('--wasm-num-compilation-tasks=1')
  const { PGlite } = await import('@electric-sql/pglite')
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true })
    if (!existsSync(join(dataDir, 'PG_VERSION'))) await createDataDir(dataDir)
  }
  const pg = await PGlite.create(dataDir ?? 'memory://', {
    startParams: startParams(PGlite.defaultStartParams),
  })
  return {
    kind: 'pglite',
    query: async (sql, params) => {
      const r = await pg.query(sql, params as unknown[])
      return { rows: r.rows as never[] }
    },
    exec: async (sql) => {
      await pg.exec(sql)
    },
    transaction: (fn) =>
      pg.transaction((tx) =>
        fn({
          query: async (sql, params) => {
            const r = await tx.query(sql, params as unknown[])
            return { rows: r.rows as never[] }
          },
        }),
      ),
    // The checkpoint first, so the snapshot starts with little WAL to replay. Then, holding the
    // transaction and query locks (which every query and transaction takes), only a read of
    // PostgreSQL's files into memory: no transaction is half done in it, and nothing writes while it
    // is read. Packing and compressing happen after, while intake goes on (docs/decisions/0724).
    dumpDataDir: async () => {
      await pg.query('CHECKPOINT')
      if (!dataDir) {
        const started = performance.now()
        const dump = await pg._runExclusiveTransaction(() => pg.dumpDataDir('gzip'))
        return {
          archive: await onlyPostgresFiles(Buffer.from(await dump.arrayBuffer())),
          writerHeldMs: performance.now() - started,
        }
      }
      let writerHeldMs = 0
      const snapshot = await pg._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(async () => {
          const started = performance.now()
          try {
            return readPostgresFiles(dataDir)
          } finally {
            writerHeldMs = performance.now() - started
          }
        }),
      )
      return { archive: await packSnapshot(snapshot), writerHeldMs }
    },
    close: () => pg.close(),
  }
}
