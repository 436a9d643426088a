import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { AUTH_SESSION_IDLE_MS, AUTH_SESSION_TTL_MS } from '../../engine/constants'
import type { AuthUser } from '../../schemas/generated/auth-session'
import type { Queryable } from './db'
import { hashPassword, type PasswordHasher, passwordHasher } from './password'

/** A staff user as the auth session shows it (schemas/auth-session.schema.json). */
export type StaffUser = AuthUser

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

export async function createStaffUser(
  db: Queryable,
  user: { email: string; name: string; password: string; role?: string },
): Promise<StaffUser> {
  const id = randomUUID()
  const email = user.email.trim().toLowerCase()
  const role = user.role ?? 'editor'
  await db.query(
    'INSERT INTO staff_users (id, email, name, password_hash, role) VALUES ($1, $2, $3, $4, $5)',
    [id, email, user.name, await hashPassword(user.password), role],
  )
  return { id, email, name: user.name, role }
}

/**
 * The user with this e-mail and password, or null (also for a disabled user). Throws
 * PasswordHashBusyError when the hasher's budget is spent.
 */
export async function checkCredentials(
  db: Queryable,
  email: string,
  password: string,
  hasher: PasswordHasher = passwordHasher,
): Promise<StaffUser | null> {
  const r = await db.query<StaffUser & { password_hash: string; disabled: boolean; locked: boolean }>(
    'SELECT id, email, name, role, password_hash, disabled, locked_at IS NOT NULL AS locked FROM staff_users WHERE email = $1',
    [email.trim().toLowerCase()],
  )
  const row = r.rows[0]
  // Verify even for an unknown user, so the answer takes as long either way.
  const ok = await hasher.verify(password, row?.password_hash ?? (await dummyHash()))
  if (!row || !ok || row.disabled || row.locked) return null
  return { id: row.id, email: row.email, name: row.name, role: row.role }
}

let dummy: Promise<string> | undefined
const dummyHash = () => {
  dummy ??= hashPassword(randomBytes(16).toString('hex'))
  return dummy
}

/** Starts a session; returns the cookie value (only its hash is stored). */
export async function createSession(
  db: Queryable,
  userId: string,
  meta: { ip: string | null; userAgent: string | null },
  now = Date.now(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(now + AUTH_SESSION_TTL_MS)
  await db.query(
    'INSERT INTO auth_sessions (token_hash, user_id, expires_at, ip, user_agent) VALUES ($1, $2, $3, $4, $5)',
    [hashToken(token), userId, expiresAt.toISOString(), meta.ip, meta.userAgent?.slice(0, 512) ?? null],
  )
  return { token, expiresAt }
}

/**
 * The user of a live session, which this use keeps alive: a session ends at its absolute expiry
 * (AUTH_SESSION_TTL_MS after sign-in) or after AUTH_SESSION_IDLE_MS unused, and with its user's
 * account (disabled or locked).
 */
export async function sessionUser(db: Queryable, token: string): Promise<StaffUser | null> {
  const r = await db.query<StaffUser>(
    `UPDATE auth_sessions s SET last_seen_at = now() FROM staff_users u
     WHERE u.id = s.user_id AND s.token_hash = $1 AND s.expires_at > now()
       AND s.last_seen_at > now() - ($2::bigint * interval '1 millisecond')
       AND NOT u.disabled AND u.locked_at IS NULL
     RETURNING u.id, u.email, u.name, u.role`,
    [hashToken(token), AUTH_SESSION_IDLE_MS],
  )
  return r.rows[0] ?? null
}

/** Whether the account with this e-mail is locked after too many failed sign-ins. */
export async function isLocked(db: Queryable, email: string): Promise<boolean> {
  const r = await db.query<{ locked: boolean }>(
    'SELECT locked_at IS NOT NULL AS locked FROM staff_users WHERE email = $1',
    [email.trim().toLowerCase()],
  )
  return r.rows[0]?.locked ?? false
}

/** Sets or lifts an account's lock; answers the user id, or null when nothing changed. */
async function setLocked(db: Queryable, email: string, locked: boolean): Promise<string | null> {
  const r = await db.query<{ id: string }>(
    locked
      ? 'UPDATE staff_users SET locked_at = now() WHERE email = $1 AND locked_at IS NULL RETURNING id'
      : 'UPDATE staff_users SET locked_at = NULL WHERE email = $1 AND locked_at IS NOT NULL RETURNING id',
    [email.trim().toLowerCase()],
  )
  return r.rows[0]?.id ?? null
}

/** Locks an account (its sessions end with it); answers the user id, or null for an unknown e-mail. */
export const lockStaffUser = (db: Queryable, email: string) => setLocked(db, email, true)

/** Lifts a lockout; answers the user id, or null when no such account is locked. */
export const unlockStaffUser = (db: Queryable, email: string) => setLocked(db, email, false)

/** Ends a session; returns the user it belonged to, if any. */
export async function deleteSession(db: Queryable, token: string): Promise<string | null> {
  const r = await db.query<{ user_id: string }>(
    'DELETE FROM auth_sessions WHERE token_hash = $1 RETURNING user_id',
    [hashToken(token)],
  )
  return r.rows[0]?.user_id ?? null
}

/** One row of the append-only audit log. */
export interface AuditEntry {
  actor: string | null
  action: string
  target?: string | null
  details?: object
  ip?: string | null
}

const auditValues = (e: AuditEntry) => [
  e.actor,
  e.action,
  e.target ?? null,
  JSON.stringify(e.details ?? {}),
  e.ip ?? null,
]

export async function audit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query(
    'INSERT INTO audit_log (actor, action, target, details, ip) VALUES ($1, $2, $3, $4::jsonb, $5)',
    auditValues(entry),
  )
}

/** Reserves the id of the next audit row, so a git commit can name it (`Audit-Id:`) before the row is written. */
export async function nextAuditId(db: Queryable): Promise<string> {
  const r = await db.query<{ id: string }>(
    "SELECT nextval(pg_get_serial_sequence('audit_log', 'id'))::text AS id",
  )
  return r.rows[0].id
}

/** Writes an audit row with an id reserved by nextAuditId. */
export async function auditWithId(db: Queryable, id: string, entry: AuditEntry): Promise<void> {
  await db.query(
    'INSERT INTO audit_log (id, actor, action, target, details, ip) VALUES ($6, $1, $2, $3, $4::jsonb, $5)',
    [...auditValues(entry), id],
  )
}

/** The staff user with this e-mail, or null. */
export async function findStaffUser(
  db: Queryable,
  email: string,
): Promise<(StaffUser & { disabled: boolean }) | null> {
  const r = await db.query<StaffUser & { disabled: boolean }>(
    'SELECT id, email, name, role, disabled FROM staff_users WHERE email = $1',
    [email.trim().toLowerCase()],
  )
  return r.rows[0] ?? null
}

/** Changes a user's role; returns the previous one, or null for an unknown e-mail. */
export async function setStaffRole(db: Queryable, email: string, role: string): Promise<string | null> {
  const r = await db.query<{ old: string }>(
    `UPDATE staff_users u SET role = $2 FROM (SELECT id, role AS old FROM staff_users WHERE email = $1) o
     WHERE u.id = o.id RETURNING o.old`,
    [email.trim().toLowerCase(), role],
  )
  return r.rows[0]?.old ?? null
}

/** Disables (or enables) a user and ends their sessions; false for an unknown e-mail. */
export async function setStaffDisabled(db: Queryable, email: string, disabled: boolean): Promise<boolean> {
  const r = await db.query<{ id: string }>(
    'UPDATE staff_users SET disabled = $2 WHERE email = $1 RETURNING id',
    [email.trim().toLowerCase(), disabled],
  )
  const id = r.rows[0]?.id
  if (id && disabled) await db.query('DELETE FROM auth_sessions WHERE user_id = $1', [id])
  return !!id
}

/** Whether a staff user with this id exists and may sign in (not disabled, not locked). */
export async function isActiveStaffUser(db: Queryable, id: string): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM staff_users WHERE id = $1 AND NOT disabled AND locked_at IS NULL', [
    id,
  ])
  return r.rows.length > 0
}
