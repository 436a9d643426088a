import type { Queryable } from './db'
import type { EventRow } from './event-rows'

const COLUMNS =
  'id text, type text, name text, brand_id text, session_id text, anonymous_id text, user_id text, paid boolean, client_ts timestamptz, received_at timestamptz, ip text, body jsonb'

/**
 * Inserts rows in one statement; an id already stored is skipped (a redelivered event is kept once).
 * Returns how many rows were new.
 */
export async function insertEvents(db: Queryable, rows: readonly EventRow[]): Promise<number> {
  if (rows.length === 0) return 0
  const r = await db.query<{ n: number }>(
    `WITH ins AS (
       INSERT INTO events
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${COLUMNS})
       ON CONFLICT (id) DO NOTHING
       RETURNING 1
     ) SELECT count(*)::int AS n FROM ins`,
    [JSON.stringify(rows)],
  )
  return r.rows[0]?.n ?? 0
}

export interface StoredEvent extends EventRow {
  received_at: string
}

/** The latest events, newest first. */
export async function latestEvents(
  db: Queryable,
  limit: number,
  afterReceivedAt?: string,
): Promise<StoredEvent[]> {
  const r = await db.query<Record<string, unknown>>(
    afterReceivedAt
      ? 'SELECT * FROM events WHERE received_at > $2 ORDER BY received_at DESC, id LIMIT $1'
      : 'SELECT * FROM events ORDER BY received_at DESC, id LIMIT $1',
    afterReceivedAt ? [limit, afterReceivedAt] : [limit],
  )
  return r.rows.map(normaliseRow)
}

export async function eventsById(db: Queryable, ids: readonly string[]): Promise<StoredEvent[]> {
  const r = await db.query<Record<string, unknown>>('SELECT * FROM events WHERE id = ANY($1::text[])', [ids])
  return r.rows.map(normaliseRow)
}

export async function countEvents(db: Queryable): Promise<number> {
  const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')
  return r.rows[0].n
}

/** PGlite and pg both return Date for timestamptz and parsed objects for jsonb; make it plain. */
function normaliseRow(row: Record<string, unknown>): StoredEvent {
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v))
  return {
    ...(row as unknown as StoredEvent),
    client_ts: iso(row.client_ts),
    received_at: iso(row.received_at),
  }
}
