/**
 * npm run staff -- add EMAIL NAME [--role ROLE]
 * npm run staff -- role EMAIL ROLE
 * npm run staff -- disable EMAIL   (or enable EMAIL)
 * npm run staff -- unlock EMAIL    (lifts the lockout of too many failed sign-ins, docs/decisions/0702)
 *
 * Manages control-center staff users (roles: viewer, editor, publisher, admin; docs/decisions/0602).
 * The password of a new user comes from FW_STAFF_PASSWORD, or a random one is generated and printed
 * once. Every change is audited. With PGlite, a running server holds the data folder: the command then
 * runs through it (its operator endpoint, as `npm run events` does); the server of this checkout is
 * found without DATA_DIR when only one runs (docs/decisions/0615, 0617).
 */
import { parseArgs } from 'node:util'
import { loadConfig } from '../config'
import { describeServer, pickServer, runningServers } from '../runtime/running-servers'
import { claimDataDir, readDataDirOwner } from '../store/data-dir-lock'
import { openStore } from '../store/open-store'
import { runStaffCommand, STAFF_USAGE } from '../store/staff-commands'
import { runCli } from './cli-main'
import { opsPost, reachable } from './ops-request'

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { role: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  })
  if (values.help || !positionals.length) {
    console.log(STAFF_USAGE)
    process.exit(values.help ? 0 : 1)
  }
  const config = loadConfig()
  const options = { role: values.role, password: process.env.FW_STAFF_PASSWORD }
  const lines = config.databaseUrl
    ? await onStore(config.databaseUrl, null, positionals, options)
    : await onDataDir(config.projectRoot, config.dataDir, positionals, options)
  for (const line of lines) console.log(line)
}

type StaffOptions = { role?: string; password?: string }

/** With PGlite: through the server that holds the folder, else on the folder itself. */
async function onDataDir(
  projectRoot: string,
  configured: string,
  positionals: string[],
  options: StaffOptions,
): Promise<string[]> {
  const servers = runningServers(projectRoot)
  const server = pickServer(servers, !!process.env.DATA_DIR?.trim(), (s) => s.dataDir === configured)
  if (!server && servers.length)
    console.error(
      `note: no server runs on DATA_DIR=${configured}; the running one (${describeServer(servers[0])}) keeps other staff`,
    )
  if (server?.store === 'postgres')
    throw new Error(
      `the running server (${describeServer(server)}) keeps its staff in PostgreSQL: run with its DATABASE_URL`,
    )
  const dataDir = server?.dataDir ?? configured
  const owner = readDataDirOwner(dataDir)
  if (!reachable(owner)) return onStore(null, dataDir, positionals, options)
  const r = await opsPost<{ lines: string[] }>(owner, '/api/_ops/staff', {
    args: positionals,
    ...(options.role !== undefined ? { role: options.role } : {}),
    ...(options.password ? { password: options.password } : {}),
  })
  return r.lines
}

async function onStore(
  databaseUrl: string | null,
  dataDir: string | null,
  positionals: string[],
  options: StaffOptions,
): Promise<string[]> {
  const lock = dataDir ? claimDataDir(dataDir) : null
  const store = await openStore({ databaseUrl, dataDir })
  try {
    return await runStaffCommand(store.db, positionals, options)
  } finally {
    await store.close()
    lock?.release()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runCli('staff', main)
