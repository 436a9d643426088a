import type { Db } from './db'
import { EventWriter } from './event-writer'
import { migrate } from './migrate'
import { openPglite } from './pglite-db'
import { openPostgres } from './postgres-db'

/** The data store: the database plus the batched event writer. */
export interface Store {
  db: Db
  events: EventWriter
  /** Where the data lives, for logs: the data folder or the server (without credentials). */
  location: string
  close(): Promise<void>
}

export interface StoreOptions {
  /** PostgreSQL URL; when null, PGlite in `dataDir` (or in memory when dataDir is null too). */
  databaseUrl: string | null
  dataDir: string | null
  poolSize?: number
}

/** The database could not be opened or migrated; the message names the variable to check. */
export class StoreUnavailableError extends Error {}

/** Opens the database chosen by configuration and applies pending migrations. */
export async function openStore(opts: StoreOptions): Promise<Store> {
  const where = opts.databaseUrl
    ? `DATABASE_URL: cannot use ${redact(opts.databaseUrl)}`
    : `DATA_DIR: cannot use ${opts.dataDir ?? 'an in-memory database'}`
  let db: Db
  try {
    db = opts.databaseUrl
      ? await openPostgres(opts.databaseUrl, opts.poolSize)
      : await openPglite(opts.dataDir ?? undefined)
  } catch (e) {
    throw new StoreUnavailableError(`${where}: ${(e as Error).message}`, { cause: e })
  }
  try {
    await migrate(db)
  } catch (e) {
    await db.close().catch(() => {})
    throw new StoreUnavailableError(`${where}: migration failed: ${(e as Error).message}`, { cause: e })
  }
  const events = new EventWriter(db)
  let closing: Promise<void> | undefined
  return {
    db,
    events,
    location: opts.databaseUrl ? redact(opts.databaseUrl) : (opts.dataDir ?? 'memory'),
    close: () => {
      closing ??= events.idle().then(() => db.close())
      return closing
    },
  }
}

function redact(url: string): string {
  const u = new URL(url)
  if (u.password) u.password = '***'
  return u.toString()
}
