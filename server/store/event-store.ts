import type { Queryable } from './db'
import { ensureEventPartitions } from './event-partitions'
import { EVENT_COLUMN_TYPES, EVENT_COLUMNS, type EventRow } from './event-rows'

/**
 * Inserts rows in one statement; an id already stored is skipped. Each id is claimed first in
 * `event_ids` (its primary key is the id alone, migration 0017, docs/decisions/0720): a redelivery
 * racing the first delivery waits for it and claims nothing, whatever client time either carries,
 * so an id is stored once under any concurrency. The monthly partitions the rows need are created
 * first when missing (docs/decisions/0311). Rows are inserted in the order given, so their `seq`
 * (migration 0019) keeps the order a request recorded them in (without the ORDER BY a join may hand
 * them over in any order: a completed visitor then showed "submitted" before the step's view).
 * Returns how many rows were new.
 */
export async function insertEvents(db: Queryable, rows: readonly EventRow[]): Promise<number> {
  if (rows.length === 0) return 0
  await ensureEventPartitions(
    db,
    rows.map((r) => r.client_ts),
  )
  const r = await db.query<{ n: number }>(
    `WITH x AS (
       SELECT DISTINCT ON (id) *
       FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (${EVENT_COLUMN_TYPES})) WITH ORDINALITY
         AS x(${EVENT_COLUMNS}, ord)
       ORDER BY id, ord
     ), claimed AS (
       INSERT INTO event_ids (id, client_ts) SELECT id, client_ts FROM x
       ON CONFLICT (id) DO NOTHING
       RETURNING id
     ), ins AS (
       INSERT INTO events (${EVENT_COLUMNS})
       SELECT ${EVENT_COLUMNS} FROM x WHERE x.id IN (SELECT id FROM claimed)
       ORDER BY x.ord
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
      ? `SELECT ${EVENT_COLUMNS} FROM events WHERE received_at > $2 ORDER BY received_at DESC, id LIMIT $1`
      : `SELECT ${EVENT_COLUMNS} FROM events ORDER BY received_at DESC, id LIMIT $1`,
    afterReceivedAt ? [limit, afterReceivedAt] : [limit],
  )
  return r.rows.map(normaliseRow)
}

/** Rows per query of an export: memory stays bounded whatever the range holds. */
export const EXPORT_PAGE_ROWS = 1_000

/**
 * Every event received in [since, until), oldest first, read page by page (keyset on
 * received_at, id) so any number of rows streams through bounded memory, on PGlite and PostgreSQL.
 */
export async function* exportEvents(
  db: Queryable,
  since: Date,
  until: Date,
  pageRows = EXPORT_PAGE_ROWS,
): AsyncGenerator<StoredEvent> {
  let after: { at: string; id: string } | null = null
  for (;;) {
    const r: { rows: Record<string, unknown>[] } = await db.query<Record<string, unknown>>(
      after
        ? `SELECT ${EVENT_COLUMNS} FROM events WHERE received_at >= $1 AND received_at < $2
             AND (received_at, id) > ($4::timestamptz, $5) ORDER BY received_at, id LIMIT $3`
        : `SELECT ${EVENT_COLUMNS} FROM events WHERE received_at >= $1 AND received_at < $2 ORDER BY received_at, id LIMIT $3`,
      after
        ? [since.toISOString(), until.toISOString(), pageRows, after.at, after.id]
        : [since.toISOString(), until.toISOString(), pageRows],
    )
    for (const row of r.rows) yield normaliseRow(row)
    if (r.rows.length < pageRows) return
    const last = normaliseRow(r.rows[r.rows.length - 1])
    after = { at: last.received_at, id: last.id }
  }
}

export async function eventsById(db: Queryable, ids: readonly string[]): Promise<StoredEvent[]> {
  const r = await db.query<Record<string, unknown>>(
    `SELECT ${EVENT_COLUMNS} FROM events WHERE id = ANY($1::text[])`,
    [ids],
  )
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
