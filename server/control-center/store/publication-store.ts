/**
 * What the control center's handlers read of `content_publications` (the publisher writes it,
 * server/control-center/services/publisher.ts) and the scheduled publish of `cc_branches`.
 */
import type { Queryable } from '../../store/db'

export interface PublicationRow {
  id: string
  kind: string
  branch: string | null
  oldCommit: string | null
  newCommit: string
  actor: string | null
  at: Date
}

/** The newest publications, newest first. */
export async function latestPublications(db: Queryable, limit: number): Promise<PublicationRow[]> {
  const r = await db.query<{
    id: string
    kind: string
    branch: string | null
    old_commit: string | null
    new_commit: string
    actor: string | null
    at: Date | string
  }>(
    `SELECT id::text AS id, kind, branch, old_commit, new_commit, actor, at
     FROM content_publications ORDER BY id DESC LIMIT $1`,
    [limit],
  )
  return r.rows.map((p) => ({
    id: p.id,
    kind: p.kind,
    branch: p.branch,
    oldCommit: p.old_commit,
    newCommit: p.new_commit,
    actor: p.actor,
    at: new Date(p.at),
  }))
}

/** The publications' commit moves, oldest first (at most `limit`). */
export async function publicationMoves(
  db: Queryable,
  limit: number,
): Promise<{ oldCommit: string | null; newCommit: string; at: Date }[]> {
  const r = await db.query<{ old_commit: string | null; new_commit: string; at: Date | string }>(
    'SELECT old_commit, new_commit, at FROM content_publications ORDER BY id LIMIT $1',
    [limit],
  )
  return r.rows.map((p) => ({ oldCommit: p.old_commit, newCommit: p.new_commit, at: new Date(p.at) }))
}

/** One publication's commit move, or null when there is no such publication. */
export async function publicationCommits(
  db: Queryable,
  id: string,
): Promise<{ oldCommit: string | null; newCommit: string } | null> {
  const r = await db.query<{ old_commit: string | null; new_commit: string }>(
    'SELECT old_commit, new_commit FROM content_publications WHERE id = $1',
    [id],
  )
  const row = r.rows[0]
  return row ? { oldCommit: row.old_commit, newCommit: row.new_commit } : null
}

/** Clears the branch's scheduled publish; false when it had none. */
export async function cancelScheduledPublish(db: Queryable, branch: string): Promise<boolean> {
  const r = await db.query<{ name: string }>(
    `UPDATE cc_branches SET scheduled_at = NULL, scheduled_commit = NULL, scheduled_by = NULL
     WHERE name = $1 AND scheduled_at IS NOT NULL RETURNING name`,
    [branch],
  )
  return r.rows.length > 0
}
