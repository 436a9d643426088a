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
