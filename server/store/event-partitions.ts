/**
 * The monthly partitions of the events table (migration 0016, docs/decisions/0311): created ahead by
 * the server, on demand for any month a batch of events needs, and dropped whole — with an audit
 * entry — once every event they can hold is older than EVENTS_RETENTION_DAYS.
 */
import { EVENT_TIMESTAMP_MAX_MS, EVENT_TIMESTAMP_MIN_MS } from '../../engine/constants'
import { audit } from './auth-store'
import type { Db, Queryable } from './db'

const DAY_MS = 86_400_000
/** Months the server keeps created ahead of the current one. */
export const EVENT_PARTITIONS_AHEAD_MONTHS = 2

/** The first instant (UTC) of the month holding `t`. */
export function monthStart(t: number): number {
  const d = new Date(t)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
}

function nextMonth(t: number): number {
  const d = new Date(t)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
}

/**
 * Makes sure the partitions of the months of `times` exist (ISO strings or ms). A time outside what an
 * event may carry is skipped: the insert then fails on the value, as it would have before.
 */
export async function ensureEventPartitions(db: Queryable, times: Iterable<string | number>): Promise<void> {
  const months = new Set<number>()
  for (const t of times) {
    const ms = typeof t === 'number' ? t : Date.parse(t)
    if (Number.isNaN(ms) || ms < EVENT_TIMESTAMP_MIN_MS || ms > EVENT_TIMESTAMP_MAX_MS) continue
    months.add(monthStart(ms))
  }
  if (months.size === 0) return
  await db.query('SELECT events_ensure_partition(m) FROM unnest($1::timestamptz[]) AS m', [
    [...months].map((m) => new Date(m).toISOString()),
  ])
}

/** The current month and the next EVENT_PARTITIONS_AHEAD_MONTHS, so ingest never has to create one. */
export async function createPartitionsAhead(db: Queryable, now = Date.now()): Promise<void> {
  const months = [monthStart(now)]
  for (let i = 0; i < EVENT_PARTITIONS_AHEAD_MONTHS; i++) months.push(nextMonth(months[months.length - 1]))
  await ensureEventPartitions(db, months)
}

export interface EventPartition {
  name: string
  from: string
  to: string
}

/** The partitions of the events table, oldest first, with their bounds. */
export async function listEventPartitions(db: Queryable): Promise<EventPartition[]> {
  const r = await db.query<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'events'::regclass`,
  )
  return r.rows
    .map((row) => {
      const m = /FROM \('([^']+)'\) TO \('([^']+)'\)/.exec(row.bound)
      return {
        name: row.name,
        from: m ? new Date(m[1]).toISOString() : '',
        to: m ? new Date(m[2]).toISOString() : '',
      }
    })
    .sort((a, b) => a.from.localeCompare(b.from))
}

/**
 * Retention: drops every partition whose whole range is older than `days` days before `now` (its
 * upper bound at or before the cutoff) — never a partition holding a newer event, never single rows.
 * Each drop writes an audit entry with the rows it held. Returns the partitions dropped.
 */
export async function dropExpiredPartitions(
  db: Db,
  days: number,
  now = Date.now(),
): Promise<EventPartition[]> {
  const cutoff = new Date(now - days * DAY_MS).toISOString()
  const dropped: EventPartition[] = []
  for (const p of await listEventPartitions(db)) {
    if (!p.to || p.to > cutoff) continue
    await db.transaction(async (tx) => {
      const n = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${p.name}"`)
      await tx.query(`DROP TABLE "${p.name}"`)
      // The ids of the events dropped with it (migration 0017): their claims go with them.
      await tx.query('DELETE FROM event_ids WHERE client_ts >= $1 AND client_ts < $2', [p.from, p.to])
      await audit(tx, {
        actor: null,
        action: 'events.retention.drop-partition',
        target: p.name,
        details: { from: p.from, to: p.to, rows: n.rows[0].n, retentionDays: days, cutoff },
      })
    })
    dropped.push(p)
  }
  return dropped
}
