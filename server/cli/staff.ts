/**
 * npm run staff -- add EMAIL NAME [--role ROLE]
 * npm run staff -- unlock EMAIL
 *
 * `add` creates a staff user for the control center. The password comes from FW_STAFF_PASSWORD, or
 * a random one is generated and printed once. `unlock` lifts the lockout that too many failed
 * sign-ins put on an account (docs/decisions/0602). With PGlite, stop the server first (one process
 * owns the data folder).
 */
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from '../config'
import { audit, createStaffUser, unlockStaffUser } from '../store/auth-store'
import { claimDataDir } from '../store/data-dir-lock'
import { openStore } from '../store/open-store'

const USAGE = `usage: npm run staff -- add EMAIL NAME [--role ROLE]   (password from FW_STAFF_PASSWORD, else generated)
       npm run staff -- unlock EMAIL                      (lifts a lockout after failed sign-ins)`

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { role: { type: 'string', default: 'editor' }, help: { type: 'boolean', short: 'h' } },
  })
  const [command, email, ...nameParts] = positionals
  const name = nameParts.join(' ')
  const valid = (command === 'add' && email && name) || (command === 'unlock' && email && !name)
  if (values.help || !valid) {
    console.log(USAGE)
    process.exit(values.help ? 0 : 1)
  }
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error(`"${email}" is not an e-mail address`)
  const config = loadConfig()
  const lock = config.databaseUrl ? null : claimDataDir(config.dataDir)
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  try {
    if (command === 'unlock') {
      const id = await unlockStaffUser(store.db, email)
      if (!id) throw new Error(`no locked account with the e-mail ${email.toLowerCase()}`)
      await audit(store.db, { actor: null, action: 'staff-user-unlocked', target: id, details: { email } })
      console.log(`unlocked ${email.toLowerCase()}`)
      return
    }
    const given = process.env.FW_STAFF_PASSWORD
    const password = given || randomBytes(12).toString('base64url')
    const user = await createStaffUser(store.db, { email, name, password, role: values.role })
    await audit(store.db, {
      actor: null,
      action: 'staff-user-created',
      target: user.id,
      details: { email: user.email },
    })
    console.log(`created ${user.email} (${user.role}), id ${user.id}`)
    if (!given) console.log(`password: ${password}   (shown once; set FW_STAFF_PASSWORD to choose one)`)
  } finally {
    await store.close()
    lock?.release()
  }
}

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
