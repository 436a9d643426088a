import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { Db } from './db'

/**
 * PostgreSQL settings of the embedded server. Its shared buffers live in the WebAssembly heap, which
 * never shrinks: PostgreSQL's default 128 MB made a fresh server ~150 MB bigger for no measurable gain
 * (PGlite is one connection, and the operating system caches the data files anyway). A handful of
 * connection slots: PGlite runs one backend. Issue 19, docs/decisions/0510.
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB', 'max_connections=4'] as const

/**
 * The first start of a data folder runs initdb in a WebAssembly instance of its own (~450 MB) that
 * is garbage once done; V8 frees it only at a full collection, which may not come for hours. One
 * collection right after initdb gives it back.
 */
async function collectGarbage(): Promise<void> {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  // initdb's instance stays reachable until its promise chain has unwound: a few turns of the loop.
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 0))
    gc()
  }
}

/**
 * Embedded PostgreSQL (PGlite) in a data folder, or in memory when no folder is given. PGlite is one
 * connection: it queues queries itself, and a transaction holds it until done (STACK.md point 10).
 */
export async function openPglite(dataDir?: string): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite')
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  const fresh = !dataDir || !existsSync(join(dataDir, 'PG_VERSION'))
  const pg = await PGlite.create(dataDir ?? 'memory://', {
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])],
  })
  if (fresh) await collectGarbage()
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
    close: () => pg.close(),
  }
}
