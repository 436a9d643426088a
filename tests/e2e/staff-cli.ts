/**
 * `npm run staff -- …` exactly as the README says, for tests that need staff users on their own
 * server: against its PGlite folder (before the server starts) or its PostgreSQL.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { PROJECT_ROOT } from './server-process'

export type StaffStore = { DATA_DIR: string } | { DATABASE_URL: string }

/** Runs the staff CLI and returns what it printed; throws with its output when it fails. */
export function staffCli(store: StaffStore, password: string, ...args: string[]): string {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'cli', 'staff.ts'), ...args],
    {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...store, FW_STAFF_PASSWORD: password, LOG_LEVEL: 'error' },
    },
  )
  if (r.status !== 0) throw new Error(`npm run staff -- ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`)
  return r.stdout
}

/** Adds staff users: [email, name, role] each. */
export function addStaff(
  store: StaffStore,
  password: string,
  users: readonly (readonly [string, string, string])[],
) {
  for (const [email, name, role] of users) staffCli(store, password, 'add', email, name, '--role', role)
}
