import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Db } from './db'

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations')
const FILE = /^(\d{4})_[a-z0-9_]+\.sql$/

export interface Migration {
  version: number
  name: string
  sql: string
}

/** The versioned migrations, in order (server/store/migrations/NNNN_name.sql). */
export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => FILE.test(f))
    .sort()
    .map((f) => ({ version: Number(FILE.exec(f)![1]), name: f, sql: readFileSync(join(dir, f), 'utf8') }))
}

/**
 * Applies every migration not yet recorded in schema_migrations, each in its own transaction. An
 * advisory lock keeps two servers starting together on one PostgreSQL from applying one twice.
 * Returns the versions applied now.
 */
export async function migrate(db: Db, migrations = listMigrations()): Promise<number[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`)
  const applied: number[] = []
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(7301)')
      const r = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version])
      if (r.rows.length) return false
      for (const statement of splitStatements(m.sql)) await tx.query(statement)
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name])
      return true
    })
    if (done) applied.push(m.version)
  }
  return applied
}

/**
 * Splits a migration into statements at semicolons outside quotes, comments and dollar-quoted
 * bodies (a trigger function's body holds semicolons of its own).
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = []
  let current = ''
  let i = 0
  while (i < sql.length) {
    const rest = sql.slice(i)
    const dollar = /^\$[a-zA-Z_]*\$/.exec(rest)
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', i)
      i = end < 0 ? sql.length : end
    } else if (dollar) {
      const end = sql.indexOf(dollar[0], i + dollar[0].length)
      const stop = end < 0 ? sql.length : end + dollar[0].length
      current += sql.slice(i, stop)
      i = stop
    } else if (sql[i] === "'") {
      let j = i + 1
      while (j < sql.length && !(sql[j] === "'" && sql[j + 1] !== "'")) j += sql[j] === "'" ? 2 : 1
      current += sql.slice(i, j + 1)
      i = j + 1
    } else if (sql[i] === ';') {
      out.push(current)
      current = ''
      i++
    } else {
      current += sql[i]
      i++
    }
  }
  out.push(current)
  return out.map((s) => s.trim()).filter(Boolean)
}
