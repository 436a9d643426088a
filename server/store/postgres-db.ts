import { userInfo } from 'node:os'
import type pg from 'pg'
import type { Db } from './db'

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/**
 * Splits the optional `schema` query parameter off a DATABASE_URL (as Prisma does): the store then
 * lives in that schema, created when missing. Tests and benches use it to keep runs apart.
 */
export function parseDatabaseUrl(url: string): { connectionString: string; schema: string | null } {
  const u = new URL(url)
  const schema = u.searchParams.get('schema')
  u.searchParams.delete('schema')
  if (schema !== null && !SCHEMA_NAME.test(schema))
    throw new Error(`schema "${schema}" must be lower-case letters, digits and _`)
  return { connectionString: u.toString(), schema }
}

/**
 * Connection settings for `pg`. Like libpq (psql), a URL without a user name means the operating
 * system user; `pg` alone would fall back to $USER, which is often unset in services and containers.
 */
export function pgConnection(connectionString: string): pg.ClientConfig {
  const u = new URL(connectionString)
  // pg reads the URL after its other options, so the user has to go into the URL itself.
  if (!u.username)
    u.username = encodeURIComponent(process.env.PGUSER || process.env.USER || userInfo().username)
  return { connectionString: u.toString() }
}

/** A PostgreSQL server through a `pg` pool. */
export async function openPostgres(url: string, poolSize = 10): Promise<Db> {
  // Loaded only for PostgreSQL: a server on PGlite never needs it (issue 19, docs/decisions/0510).
  const { default: pg } = await import('pg')
  const { connectionString, schema } = parseDatabaseUrl(url)
  if (schema) {
    const c = new pg.Client(pgConnection(connectionString))
    await c.connect()
    try {
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
    } finally {
      await c.end()
    }
  }
  const pool = new pg.Pool({
    ...pgConnection(connectionString),
    max: poolSize,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  })
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  // Fail at start, with the server's own message, rather than at the first request.
  await pool.query('SELECT 1').catch(async (e) => {
    await pool.end().catch(() => {})
    throw e
  })
  return {
    kind: 'postgres',
    query: async (sql, params) => {
      const r = await pool.query(sql, params as unknown[])
      return { rows: r.rows }
    },
    exec: async (sql) => {
      await pool.query(sql)
    },
    transaction: async (fn) => {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await fn({
          query: async (sql, params) => {
            const r = await client.query(sql, params as unknown[])
            return { rows: r.rows }
          },
        })
        await client.query('COMMIT')
        return result
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {})
        throw e
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
