/**
 * npm run staff -- add EMAIL NAME [--role ROLE]
 * npm run staff -- role EMAIL ROLE
 * npm run staff -- disable EMAIL   (or enable EMAIL)
 * npm run staff -- unlock EMAIL    (lifts the lockout of too many failed sign-ins, docs/decisions/0702)
 *
 * Manages control-center staff users (roles: viewer, editor, publisher, admin; docs/decisions/0602).
 * The password of a new user comes from FW_STAFF_PASSWORD, or a random one is generated and printed
 * once. Every change is audited. With PGlite, stop the server first (one process owns the data folder).
 */
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { isStaffRole, STAFF_ROLES } from '../../engine/content/permissions'
import { ConfigError, loadConfig } from '../config'
import {
  audit,
  createStaffUser,
  findStaffUser,
  setStaffDisabled,
  setStaffRole,
  unlockStaffUser,
} from '../store/auth-store'
import { claimDataDir } from '../store/data-dir-lock'
import type { Db } from '../store/db'
import { openStore } from '../store/open-store'

const USAGE = `usage: npm run staff -- add EMAIL NAME [--role ROLE]   (password from FW_STAFF_PASSWORD, else generated)
       npm run staff -- role EMAIL ROLE
       npm run staff -- disable EMAIL | enable EMAIL
       npm run staff -- unlock EMAIL
roles: ${STAFF_ROLES.join(', ')}`

class UsageError extends Error {}

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
    const user = await createStaffUser(db, { email, name, password, role })
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
  throw new UsageError(USAGE)
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { role: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  if (values.help || !positionals.length) {
    console.log(USAGE)
    process.exit(values.help ? 0 : 1)
  }
  const config = loadConfig()
  const lock = config.databaseUrl ? null : claimDataDir(config.dataDir)
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  try {
    for (const line of await runStaffCommand(store.db, positionals, {
      role: values.role,
      password: process.env.FW_STAFF_PASSWORD,
    }))
      console.log(line)
  } finally {
    await store.close()
    lock?.release()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await main()
  } catch (e) {
    const message = (e as Error).message
    console.error(
      e instanceof ConfigError
        ? `Configuration error: ${message}`
        : /duplicate key|unique/i.test(message)
          ? 'staff: a user with this e-mail already exists'
          : `staff: ${message}`,
    )
    process.exit(1)
  }
}
