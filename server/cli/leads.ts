/**
 * npm run leads -- show <session id | anonymous id | user id | phone> [--json]
 * npm run leads -- export <email | phone | anonymous id> [--json]
 * npm run leads -- erase <email | phone | anonymous id>
 *
 * `show` prints one lead's story in time order for a compliance reviewer: pages seen with the content
 * revision they were rendered from, steps submitted, consent records (exact text, hash, version),
 * demand checks and phone leases, and the number shown; it says when the lead was erased. `export`
 * prints every record held about a person (answers, events, consent records, leases, visitor records);
 * `erase` removes or redacts their personal fields everywhere, keeping the consent proof
 * (docs/decisions/0811). --json prints one JSON object. Reads the store like `npm run events`:
 * PostgreSQL when DATABASE_URL is set, else the PGlite folder (DATA_DIR) — through the running
 * server's operator endpoints when a server holds it.
 */
import { parseArgs } from 'node:util'
import { loadConfig } from '../config'
import { claimDataDir, readDataDirOwner } from '../store/data-dir-lock'
import type { Db } from '../store/db'
import { type LeadStory, leadStory } from '../store/lead-store'
import { openStore } from '../store/open-store'
import { type ErasureResult, erasePerson, type PersonRecords, personExport } from '../store/person-data'
import { runCli } from './cli-main'
import { formatLead } from './format-lead'
import { formatPerson } from './format-person'
import { opsFetch, opsPost, reachable } from './ops-request'

const USAGE = `usage: npm run leads -- show <session id | anonymous id | user id | phone> [--json]
       npm run leads -- export <email | phone | anonymous id> [--json]
       npm run leads -- erase <email | phone | anonymous id>`

type Command = 'show' | 'export' | 'erase'

/** Runs a command on the store: through the running server when it holds the PGlite folder, else directly. */
async function onStore<T>(
  ops: { path: string; body: unknown; get?: boolean },
  direct: (db: Db) => Promise<T>,
): Promise<T> {
  const config = loadConfig()
  if (!config.databaseUrl) {
    const owner = readDataDirOwner(config.dataDir)
    if (reachable(owner)) {
      if (!ops.get) return opsPost<T>(owner, ops.path, ops.body)
      const r = await opsFetch(
        owner,
        `${ops.path}?${new URLSearchParams(ops.body as Record<string, string>)}`,
      )
      if (!r.ok)
        throw new Error(`the running server (pid ${owner.pid}) answered ${r.status}: ${await r.text()}`)
      return (await r.json()) as T
    }
  }
  const lock = config.databaseUrl ? null : claimDataDir(config.dataDir)
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  try {
    return await direct(store.db)
  } finally {
    await store.close()
    lock?.release()
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  const command = positionals[0] as Command
  if (values.help || !['show', 'export', 'erase'].includes(command) || positionals.length !== 2) {
    console.log(USAGE)
    process.exit(values.help ? 0 : 1)
  }
  const key = positionals[1].trim()
  if (command === 'show') {
    const story = await onStore<LeadStory>({ path: '/api/_ops/leads', body: { key }, get: true }, (db) =>
      leadStory(db, key),
    )
    console.log(values.json ? JSON.stringify(story, null, 2) : formatLead(story))
    if (!story.matchedBy && !story.erased) process.exit(2)
    return
  }
  if (command === 'export') {
    const held = await onStore<PersonRecords>({ path: '/api/_ops/leads/export', body: { key } }, (db) =>
      personExport(db, key),
    )
    console.log(values.json ? JSON.stringify(held, null, 2) : formatPerson(held))
    if (!held.matchedBy && !held.erased) process.exit(2)
    return
  }
  const done = await onStore<ErasureResult>({ path: '/api/_ops/leads/erase', body: { key } }, (db) =>
    erasePerson(db, key, null),
  )
  if (values.json) console.log(JSON.stringify(done, null, 2))
  else if (!done.erasureId) console.log(`Nothing personal is held for "${key}": nothing erased.`)
  else
    console.log(
      `Erased the person "${key}" leads to (erasure ${done.erasureId}, matched by ${done.matchedBy}):\n${Object.entries(
        done.counts,
      )
        .map(([table, n]) => `  ${table}: ${n}`)
        .join('\n')}\nThe consent proof is kept without who gave it; \`leads -- show\` now says erased.`,
    )
  if (!done.erasureId) process.exit(2)
}

await runCli('leads', main)
