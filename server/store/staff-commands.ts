/**
 * The `npm run staff` commands on an open store: run by the CLI directly, or by the server that holds
 * the PGlite folder for the CLI (POST /api/_ops/staff, docs/decisions/0617). Every change is audited.
 */
import { randomBytes } from 'node:crypto'
import { isStaffRole, STAFF_ROLES } from '../../engine/control-center/content/permissions'
import {
  audit,
  createStaffUser,
  findStaffUser,
  setStaffDisabled,
  setStaffRole,
  unlockStaffUser,
} from './auth-store'
import type { Db } from './db'

export const STAFF_USAGE = `usage: npm run staff -- add EMAIL NAME [--role ROLE]   (password from FW_STAFF_PASSWORD, else generated)
       npm run staff -- role EMAIL ROLE
       npm run staff -- disable EMAIL | enable EMAIL
       npm run staff -- unlock EMAIL
roles: ${STAFF_ROLES.join(', ')}`

/** Bad input of a staff command: its message says what is wrong. */
export class UsageError extends Error {}

function checkRole(role: string): void {
  if (!isStaffRole(role)) throw new UsageError(`role "${role}" is not one of ${STAFF_ROLES.join(', ')}`)
}

function checkEmail(email: string | undefined): string {
  if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new UsageError(`"${email ?? ''}" is not an e-mail address`)
  return email
}

/** Runs one staff command against an open database; returns the lines to print. */
export async function runStaffCommand(
  db: Db,
  positionals: string[],
  options: { role?: string; password?: string },
): Promise<string[]> {
  const [command, emailArg, ...rest] = positionals
  if (command === 'add') {
    const email = checkEmail(emailArg)
    const name = rest.join(' ').trim()
    if (!name) throw new UsageError('add needs a NAME after the e-mail')
    const role = options.role ?? 'editor'
    checkRole(role)
    const password = options.password || randomBytes(12).toString('base64url')
    const user = await createStaffUser(db, { email, name, password, role }).catch((e: Error) => {
      throw /duplicate key|unique/i.test(e.message)
        ? new UsageError(`a user with the e-mail ${email.toLowerCase()} already exists`)
        : e
    })
    await audit(db, {
      actor: null,
      action: 'staff-user-created',
      target: user.id,
      details: { email: user.email, role },
    })
    const lines = [`created ${user.email} (${user.role}), id ${user.id}`]
    if (!options.password)
      lines.push(`password: ${password}   (shown once; set FW_STAFF_PASSWORD to choose one)`)
    return lines
  }
  if (command === 'role') {
    const email = checkEmail(emailArg)
    const role = rest[0] ?? ''
    checkRole(role)
    const user = await findStaffUser(db, email)
    if (!user) throw new UsageError(`no staff user ${email}`)
    const old = await setStaffRole(db, email, role)
    await audit(db, {
      actor: null,
      action: 'role.change',
      target: user.id,
      details: { email: user.email, from: old, to: role },
    })
    return [`${user.email}: ${old} → ${role}`]
  }
  if (command === 'disable' || command === 'enable') {
    const email = checkEmail(emailArg)
    const user = await findStaffUser(db, email)
    if (!user) throw new UsageError(`no staff user ${email}`)
    await setStaffDisabled(db, email, command === 'disable')
    await audit(db, {
      actor: null,
      action: `staff-user-${command}d`,
      target: user.id,
      details: { email: user.email },
    })
    return [`${user.email}: ${command}d${command === 'disable' ? ' (sessions ended)' : ''}`]
  }
  if (command === 'unlock') {
    const email = checkEmail(emailArg)
    const id = await unlockStaffUser(db, email)
    if (!id) throw new UsageError(`no locked account with the e-mail ${email.toLowerCase()}`)
    await audit(db, { actor: null, action: 'staff-user-unlocked', target: id, details: { email } })
    return [`unlocked ${email.toLowerCase()}`]
  }
  throw new UsageError(STAFF_USAGE)
}
