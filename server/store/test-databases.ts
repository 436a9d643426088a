/**
 * For tests and benches: the two databases every store test runs against — PGlite (in memory or in
 * a folder) and the PostgreSQL server (TEST_DATABASE_URL; see testPostgresUrl) in
 * a schema of its own per run, dropped afterwards, so parallel runs never meet.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openStore, type Store } from './open-store'
import { pgConnection } from './postgres-db'

/** Where a PostgreSQL server is looked for when TEST_DATABASE_URL is unset (libpq's PGHOST/PGPORT apply). */
export const DEFAULT_TEST_POSTGRES_URL = `postgres://${process.env.PGHOST || '127.0.0.1'}:${process.env.PGPORT || '5432'}/test`

/**
 * The server the PostgreSQL tests use. The test run's global setup (tests/setup/postgres.global.ts)
 * sets TEST_DATABASE_URL — to the default when it answers, else to an embedded server it started.
 */
export function testPostgresUrl(): string {
  return process.env.TEST_DATABASE_URL || DEFAULT_TEST_POSTGRES_URL
}

export type DbKind = 'pglite' | 'postgres'
export const DB_KINDS: readonly DbKind[] = ['pglite', 'postgres']

/** A fresh schema name and the DATABASE_URL that selects it. */
export function uniquePostgresUrl(prefix = 'fw_test'): { url: string; schema: string } {
  const schema = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`
  const u = new URL(testPostgresUrl())
  u.searchParams.set('schema', schema)
  return { url: u.toString(), schema }
}

export async function dropPostgresSchema(schema: string): Promise<void> {
  const c = new pg.Client(pgConnection(testPostgresUrl()))
  await c.connect()
  try {
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  } finally {
    await c.end()
  }
}

/** A store for tests, with the DATABASE_URL that reaches it (null: PGlite in memory). */
export type TestStore = Store & { databaseUrl: string | null }

/**
 * A migrated store for one test file on `kind`: PGlite in memory, or PostgreSQL in a fresh schema
 * (named with `prefix`) that close() drops after closing the store.
 */
export async function openTestStore(kind: DbKind, prefix?: string): Promise<TestStore> {
  if (kind === 'pglite')
    return { ...(await openStore({ databaseUrl: null, dataDir: null })), databaseUrl: null }
  const { url, schema } = uniquePostgresUrl(prefix)
  const store = await openStore({ databaseUrl: url, dataDir: null }).catch(async (e) => {
    await dropPostgresSchema(schema)
    throw e
  })
  return {
    ...store,
    databaseUrl: url,
    async close() {
      await store.close()
      await dropPostgresSchema(schema)
    },
  }
}
