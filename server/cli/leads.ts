/**
 * npm run leads -- show <session id | anonymous id | user id | phone> [--json]
 *
 * Prints one lead's story in time order for a compliance reviewer: pages seen with the content
 * revision they were rendered from, steps submitted, consent records (exact text, hash, version),
 * demand checks and phone leases, and the number shown; --json prints the same as one JSON object.
 * Reads the store like `npm run events`: PostgreSQL when DATABASE_URL is set, else the PGlite folder
 * (DATA_DIR) — through the running server's operator endpoint when a server holds it.
 */
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from '../config'
import { claimDataDir, readDataDirOwner } from '../store/data-dir-lock'
import { type LeadStory, leadStory } from '../store/lead-store'
import { openStore } from '../store/open-store'
import { formatLead } from './format-lead'

const USAGE = 'usage: npm run leads -- show <session id | anonymous id | user id | phone> [--json]'

async function readStory(key: string): Promise<LeadStory> {
  const config = loadConfig()
  if (!config.databaseUrl) {
    const owner = readDataDirOwner(config.dataDir)
    if (owner?.port) {
      const r = await fetch(`http://127.0.0.1:${owner.port}/api/_ops/leads?${new URLSearchParams({ key })}`, {
        headers: { 'x-ops-token': owner.token },
      })
      if (!r.ok) {
        const text = await r.text()
        throw new Error(`the running server (pid ${owner.pid}) answered ${r.status}: ${text}`)
      }
      return (await r.json()) as LeadStory
    }
  }
  const lock = config.databaseUrl ? null : claimDataDir(config.dataDir)
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  try {
    return await leadStory(store.db, key)
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
  if (values.help || positionals[0] !== 'show' || positionals.length !== 2) {
    console.log(USAGE)
    process.exit(values.help ? 0 : 1)
  }
  const story = await readStory(positionals[1].trim())
  console.log(values.json ? JSON.stringify(story, null, 2) : formatLead(story))
  if (!story.matchedBy) process.exit(2)
}

try {
  await main()
} catch (e) {
  console.error(
    e instanceof ConfigError ? `Configuration error: ${e.message}` : `leads: ${(e as Error).message}`,
  )
  process.exit(1)
}
