import type { VisitorRecord } from '../../schemas/generated/visitor-record'
import type { Queryable } from './db'

/**
 * Upserts a visitor record. An older change (by its client `updatedAt`) never overwrites a newer
 * one, so tabs that post out of order still converge on the newest record.
 */
export async function upsertVisitor(db: Queryable, record: VisitorRecord, ip: string | null): Promise<void> {
  await db.query(
    `INSERT INTO visitors (user_id, anonymous_id, session, url_params, updated_at, ip)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6)
     ON CONFLICT (user_id) DO UPDATE SET
       anonymous_id = excluded.anonymous_id,
       session = excluded.session,
       url_params = excluded.url_params,
       updated_at = excluded.updated_at,
       last_seen_at = now(),
       ip = excluded.ip
     WHERE visitors.updated_at <= excluded.updated_at`,
    [
      record.userId,
      record.anonymousId,
      JSON.stringify(record.session),
      JSON.stringify(record.urlParams),
      record.updatedAt,
      ip,
    ],
  )
}

export async function getVisitor(db: Queryable, userId: string): Promise<VisitorRecord | null> {
  const r = await db.query<{
    user_id: string
    anonymous_id: string
    session: VisitorRecord['session']
    url_params: VisitorRecord['urlParams']
    updated_at: string | number
  }>('SELECT user_id, anonymous_id, session, url_params, updated_at FROM visitors WHERE user_id = $1', [
    userId,
  ])
  const row = r.rows[0]
  if (!row) return null
  return {
    userId: row.user_id,
    anonymousId: row.anonymous_id,
    session: row.session,
    urlParams: row.url_params,
    updatedAt: Number(row.updated_at),
  }
}
