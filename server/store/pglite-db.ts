import { mkdirSync } from 'node:fs'
import type { Db } from './db'

/**
 * Embedded PostgreSQL (PGlite) in a data folder, or in memory when no folder is given. PGlite is one
 * connection: it queues queries itself, and a transaction holds it until done (STACK.md point 10).
 */
export async function openPglite(dataDir?: string): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite')
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  const pg = await PGlite.create(dataDir ?? 'memory://')
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
