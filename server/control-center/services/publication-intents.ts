/**
 * Publish is one step (docs/decisions/0612): the publication that is about to move live is first
 * committed as an intent; after the ref move one transaction writes its content_publications row and
 * audit row and marks it done. An intent a crash left pending is settled from where live is: live at
 * (or descended from) its new commit means it happened, so it is completed; otherwise it never
 * happened, so it is abandoned and the audit log says so under the id the publish had reserved.
 */

import type { ContentRepository } from '../../content/content-repository'
import { PUBLISHED_REF } from '../../content/git/branch-name'
import { log } from '../../log'
import { auditWithId } from '../../store/auth-store'
import type { Db, Queryable } from '../../store/db'

/** The channel every instance LISTENs on for publications (CONTROL-CENTER §2.7). */
export const CONTENT_CHANNEL = 'fw_content'
/** The audit action of a publish that was intended but never reached live. */
export const PUBLISH_ABANDONED_ACTION = 'publish.abandoned'

/** Everything the publication and audit rows of a publish will say, known before live moves. */
export interface PublicationIntent {
  oldCommit: string
  newCommit: string
  branch: string | null
  kind: string
  actor: string
  snapshotId: string
  gateReport: object
  /** The audit id reserved for the publish (named by a merge commit's Audit-Id trailer). */
  auditId: string
  action: string
  /** The audit details, without the publication id (added once there is one). */
  details: object
}

interface IntentRow {
  id: string
  old_commit: string
  new_commit: string
  branch: string | null
  kind: string
  actor: string
  snapshot_id: string
  gate_report: object
  audit_id: string
  action: string
  details: object
}

export type IntentOutcome =
  | { intent: string; outcome: 'completed'; publication: string; commit: string }
  | { intent: string; outcome: 'abandoned'; commit: string }

/** Commits the intent on its own (not in the caller's transaction): it must be durable before live moves. */
export async function recordIntent(db: Db, i: PublicationIntent): Promise<string> {
  const r = await db.query<{ id: string }>(
    `INSERT INTO content_publication_intents
       (old_commit, new_commit, branch, kind, actor, snapshot_id, gate_report, audit_id, action, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10::jsonb) RETURNING id::text AS id`,
    [
      i.oldCommit,
      i.newCommit,
      i.branch,
      i.kind,
      i.actor,
      i.snapshotId,
      JSON.stringify(i.gateReport),
      i.auditId,
      i.action,
      JSON.stringify(i.details),
    ],
  )
  return r.rows[0].id
}

/** The pending intent `id`, locked for this transaction; null when it is settled already. */
async function claim(tx: Queryable, id: string): Promise<IntentRow | null> {
  const r = await tx.query<IntentRow>(
    `SELECT id::text AS id, old_commit, new_commit, branch, kind, actor, snapshot_id, gate_report,
            audit_id::text AS audit_id, action, details
     FROM content_publication_intents WHERE id = $1 AND state = 'pending' FOR UPDATE`,
    [id],
  )
  return r.rows[0] ?? null
}

/**
 * Live is at the intent's commit: its publication row, audit row, the branch's status and the
 * NOTIFY to the other instances, in one transaction. Returns the publication id (null: settled already).
 */
export function completeIntent(db: Db, id: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    const i = await claim(tx, id)
    if (!i) return null
    const r = await tx.query<{ id: string }>(
      `INSERT INTO content_publications (old_commit, new_commit, branch, kind, actor, snapshot_id, gate_report, at)
       SELECT old_commit, new_commit, branch, kind, actor, snapshot_id, gate_report, created_at
       FROM content_publication_intents WHERE id = $1 RETURNING id::text AS id`,
      [id],
    )
    const publication = r.rows[0].id
    await auditWithId(tx, i.audit_id, {
      actor: i.actor,
      action: i.action,
      target: i.branch ?? PUBLISHED_REF,
      details: { ...i.details, publication },
    })
    if (i.branch) await tx.query(`UPDATE cc_branches SET status = 'published' WHERE name = $1`, [i.branch])
    await tx.query(
      `UPDATE content_publication_intents SET state = 'done', publication = $2, settled_at = now() WHERE id = $1`,
      [id, publication],
    )
    await tx.query('SELECT pg_notify($1, $2)', [
      CONTENT_CHANNEL,
      JSON.stringify({ type: 'published', commit: i.new_commit, id: publication }),
    ])
    return publication
  })
}

/** Live never reached the intent's commit: it is marked abandoned and audited as a publish that did not happen. */
export function abandonIntent(db: Db, id: string, reason: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const i = await claim(tx, id)
    if (!i) return false
    await auditWithId(tx, i.audit_id, {
      actor: i.actor,
      action: PUBLISH_ABANDONED_ACTION,
      target: i.branch ?? PUBLISHED_REF,
      details: { ...i.details, intended: i.action, intent: i.id, reason },
    })
    await tx.query(
      `UPDATE content_publication_intents SET state = 'abandoned', settled_at = now() WHERE id = $1`,
      [id],
    )
    return true
  })
}

/** Whether live (the published ref, as the remote has it when there is one) has reached `commit`. */
export async function wentLive(content: ContentRepository, commit: string): Promise<boolean> {
  const live = await content.repo.resolve(PUBLISHED_REF)
  if (!live) return false
  if (live === commit) return true
  // A commit this repository does not hold cannot be under live (a merge commit whose push never happened).
  if (!(await content.repo.resolve(commit))) return false
  return content.repo.isAncestor(commit, live)
}

/** Whether any publish is between its intent and its rows (or was, when its server died). */
export async function hasPendingIntents(db: Queryable): Promise<boolean> {
  const r = await db.query(`SELECT 1 FROM content_publication_intents WHERE state = 'pending' LIMIT 1`)
  return r.rows.length > 0
}

/**
 * Settles every pending intent, oldest first, from where live is now. The caller holds the publish
 * lock, so no publish is between its intent and its completion. Fetches from the remote first: when
 * it cannot be reached this throws and the intents stay pending for the next reconcile.
 */
export async function settleIntents(content: ContentRepository, db: Db): Promise<IntentOutcome[]> {
  const r = await db.query<{ id: string; new_commit: string }>(
    `SELECT id::text AS id, new_commit FROM content_publication_intents WHERE state = 'pending' ORDER BY id`,
  )
  if (!r.rows.length) return []
  await content.sync()
  const settled: IntentOutcome[] = []
  for (const i of r.rows) {
    if (await wentLive(content, i.new_commit)) {
      const publication = await completeIntent(db, i.id)
      if (publication) settled.push({ intent: i.id, outcome: 'completed', publication, commit: i.new_commit })
    } else if (await abandonIntent(db, i.id, 'live never moved to this commit (the publish was interrupted)'))
      settled.push({ intent: i.id, outcome: 'abandoned', commit: i.new_commit })
  }
  for (const s of settled) log('warn', `interrupted publish ${s.outcome}`, s)
  return settled
}
