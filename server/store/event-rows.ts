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
    client_ts: new Date(body.timestamp).toISOString(),
    received_at: receivedAt.toISOString(),
    ip,
    body,
  }
}
