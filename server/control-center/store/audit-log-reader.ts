/**
 * The activity log's read of `audit_log` (server/store/auth-store.ts `audit` writes it): filtered,
 * newest first by time (docs/decisions/0966: ids are reserved before their rows are written), paged
 * with `before` an earlier page's last row id.
 */
import type { Queryable } from '../../store/db'

export interface AuditFilter {
  actor?: string | null
  action?: string | null
  /** The row's target, a branch name. */
  branch?: string | null
  /** Rows older than this audit row id. */
  before?: string | null
  /** Only the rows about branches and this user's own (a reader without `audit.read`). */
  limitedTo?: string | null
  limit: number
}

export interface AuditRow {
  id: string
  at: Date | string
  actor: string | null
  action: string
  target: string | null
  details: unknown
  ip: string | null
}

/** Whether an audit row with this id exists. */
export async function auditRowExists(db: Queryable, id: string): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM audit_log WHERE id = $1::bigint', [id])
  return r.rows.length > 0
}

/** The rows the filter selects, newest first. */
export async function readAuditLog(db: Queryable, f: AuditFilter): Promise<AuditRow[]> {
  const where: string[] = []
  const args: unknown[] = []
  const add = (sql: string, v: unknown) => {
    args.push(v)
    where.push(sql.replaceAll('?', `$${args.length}`))
  }
  if (f.actor) add('actor = ?', f.actor)
  if (f.action) add('action = ?', f.action)
  if (f.branch) add('target = ?', f.branch)
  if (f.before) add('(at, id) < (SELECT at, id FROM audit_log WHERE id = ?::bigint)', f.before)
  if (f.limitedTo)
    add(
      `(actor = ? OR action LIKE 'branch.%' OR action IN ('commit', 'merge-live', 'publish', 'rollback', 'publish.scheduled-fired') OR action LIKE 'review.%')`,
      f.limitedTo,
    )
  args.push(f.limit)
  const r = await db.query<AuditRow>(
    `SELECT id::text AS id, at, actor, action, target, details, ip FROM audit_log
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY at DESC, id DESC LIMIT $${args.length}`,
    args,
  )
  return r.rows
}
