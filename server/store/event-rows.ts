import type { AnalyticsEvent } from '../../schemas/generated/analytics-event'

/** One row of the events table. */
export interface EventRow {
  id: string
  type: 'page' | 'track'
  name: string
  brand_id: string | null
  session_id: string
  anonymous_id: string
  user_id: string | null
  paid: boolean | null
  client_ts: string
  received_at: string
  ip: string | null
  body: AnalyticsEvent
}

/**
 * The columns of an event row (with their types, for jsonb_to_recordset), for writes and reads: the table also holds columns generated from the body for
 * indexes (migration 0007) that are not part of an event.
 */
export const EVENT_COLUMN_TYPES =
  'id text, type text, name text, brand_id text, session_id text, anonymous_id text, user_id text, paid boolean, client_ts timestamptz, received_at timestamptz, ip text, body jsonb'
export const EVENT_COLUMNS = EVENT_COLUMN_TYPES.split(', ')
  .map((c) => c.split(' ')[0])
  .join(', ')

/**
 * How far a client's clock may be from the server's before the event's time is taken as the nearest
 * bound (docs/decisions/0311): the event is filed under a monthly partition of its time, and a client
 * must not make the server create partitions for any month it likes. The body keeps what it sent.
 */
export const EVENT_CLIENT_TS_PAST_DAYS = 400
export const EVENT_CLIENT_TS_AHEAD_DAYS = 2
const DAY_MS = 86_400_000

/** The event's time for the store: the client's, within the bounds around the server's. */
export function eventTime(timestamp: string, receivedAt: Date): string {
  const at = receivedAt.getTime()
  const t = Date.parse(timestamp)
  const lo = at - EVENT_CLIENT_TS_PAST_DAYS * DAY_MS
  const hi = at + EVENT_CLIENT_TS_AHEAD_DAYS * DAY_MS
  return new Date(Number.isNaN(t) ? at : Math.min(hi, Math.max(lo, t))).toISOString()
}

/** A validated body → its row, stamped with server time and the client's IP. */
export function eventRow(body: AnalyticsEvent, receivedAt: Date, ip: string | null): EventRow {
  const p = body.properties
  return {
    id: p.eventId,
    type: body.type,
    name: body.type === 'page' ? body.name : body.event,
    brand_id: p.brand?.id ?? null,
    session_id: body.sessionId,
    anonymous_id: body.anonymousId,
    user_id: p.userId ?? null,
    paid: p.session?.paid ?? null,
    client_ts: eventTime(body.timestamp, receivedAt),
    received_at: receivedAt.toISOString(),
    ip,
    body,
  }
}
