/**
 * For tests and benches: the two databases every store test runs against — PGlite (in memory or in
 * a folder) and the PostgreSQL server (TEST_DATABASE_URL, default postgres://127.0.0.1:5432/test) in
 * a schema of its own per run, dropped afterwards, so parallel runs never meet.
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { pgConnection } from './postgres-db'

export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test'

export type DbKind = 'pglite' | 'postgres'
export const DB_KINDS: readonly DbKind[] = ['pglite', 'postgres']

/** A fresh schema name and the DATABASE_URL that selects it. */
export function uniquePostgresUrl(prefix = 'fw_test'): { url: string; schema: string } {
  const schema = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`
  const u = new URL(TEST_POSTGRES_URL)
  u.searchParams.set('schema', schema)
  return { url: u.toString(), schema }
}

export async function dropPostgresSchema(schema: string): Promise<void> {
  const c = new pg.Client(pgConnection(TEST_POSTGRES_URL))
  await c.connect()
  try {
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  } finally {
    await c.end()
  }
}
