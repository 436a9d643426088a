/**
 * `cc_presence`: who has which file of which branch open (docs/decisions/0950). One row per editor,
 * branch and file; `since` is when this stretch of editing began, `seen_at` the last heartbeat. A row
 * older than the expiry counts as gone.
 */
import type { Queryable } from '../../store/db'

export interface PresentEditor {
  id: string
  name: string
  since: Date
}

/** A heartbeat: upserts my row (a new stretch restarts `since`) and sweeps every expired row. */
export async function notePresence(
  db: Queryable,
  at: { userId: string; branch: string; path: string },
  expiryMs: number,
): Promise<void> {
  await db.query(
    `INSERT INTO cc_presence (user_id, branch, path) VALUES ($1, $2, $3)
     ON CONFLICT (branch, path, user_id) DO UPDATE SET
       since = CASE WHEN cc_presence.seen_at > now() - $4::int * interval '1 millisecond'
                    THEN cc_presence.since ELSE now() END,
       seen_at = now()`,
    [at.userId, at.branch, at.path, expiryMs],
  )
  await db.query(`DELETE FROM cc_presence WHERE seen_at < now() - $1::int * interval '1 millisecond'`, [
    expiryMs,
  ])
}

/** The other editors of this file on this branch whose last heartbeat is younger than the expiry, longest first. */
export async function otherEditors(
  db: Queryable,
  at: { branch: string; path: string; me: string },
  expiryMs: number,
): Promise<PresentEditor[]> {
  const r = await db.query<{ id: string; name: string; since: Date | string }>(
    `SELECT p.user_id AS id, COALESCE(u.name, p.user_id) AS name, p.since
       FROM cc_presence p LEFT JOIN staff_users u ON u.id = p.user_id
      WHERE p.branch = $1 AND p.path = $2 AND p.user_id <> $3
        AND p.seen_at > now() - $4::int * interval '1 millisecond'
      ORDER BY p.since, name`,
    [at.branch, at.path, at.me, expiryMs],
  )
  return r.rows.map((o) => ({ id: o.id, name: o.name, since: new Date(o.since) }))
}

/** The editor closed: my row goes at once rather than at the expiry. */
export async function leavePresence(
  db: Queryable,
  at: { userId: string; branch: string; path: string },
): Promise<void> {
  await db.query('DELETE FROM cc_presence WHERE branch = $1 AND path = $2 AND user_id = $3', [
    at.branch,
    at.path,
    at.userId,
  ])
}
