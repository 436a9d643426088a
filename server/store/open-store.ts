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

/** Opens the database chosen by configuration and applies pending migrations. */
export async function openStore(opts: StoreOptions): Promise<Store> {
  const db = opts.databaseUrl
    ? await openPostgres(opts.databaseUrl, opts.poolSize)
    : await openPglite(opts.dataDir ?? undefined)
  try {
    await migrate(db)
  } catch (e) {
    await db.close().catch(() => {})
    throw e
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
