/**
 * npm run events -- tail [-n 20] [--follow] [--json]
 * npm run events -- export --since ISO --until ISO [--json]
 *
 * Prints the latest events, oldest first, one readable line each (or one JSON object per line with
 * --json); --follow keeps printing new ones. Reads the store the server is configured with: PostgreSQL
 * when DATABASE_URL is set; otherwise the PGlite folder (DATA_DIR) — through the running server's
 * operator endpoint when a server holds the folder, directly when none does. `export` streams every
 * event received in [since, until), oldest first, however many there are.
 */
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { Readable } from 'node:stream'
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from '../config'
import { claimDataDir, readDataDirOwner } from '../store/data-dir-lock'
import { exportEvents, latestEvents, type StoredEvent } from '../store/event-store'
import { openStore } from '../store/open-store'
import { formatEvent } from './format-event'
import { opsFetch, reachable } from './ops-request'

const USAGE = `usage: npm run events -- tail [-n COUNT] [--follow] [--json]
       npm run events -- export --since ISO-DATE --until ISO-DATE [--json]`

type Source = {
  latest(limit: number, after?: string): Promise<StoredEvent[]>
  export(since: Date, until: Date): AsyncIterable<StoredEvent>
  close(): Promise<void>
}

async function openSource(): Promise<Source> {
  const config = loadConfig()
  if (!config.databaseUrl) {
    const owner = readDataDirOwner(config.dataDir)
    if (reachable(owner)) {
      return {
        async latest(limit, after) {
          const q = new URLSearchParams({ limit: String(limit), ...(after ? { after } : {}) })
          const r = await opsFetch(owner, `/api/_ops/events?${q}`)
          if (!r.ok) throw new Error(`the running server (pid ${owner.pid}) answered ${r.status}`)
          return ((await r.json()) as { events: StoredEvent[] }).events
        },
        async *export(since, until) {
          const q = new URLSearchParams({ since: since.toISOString(), until: until.toISOString() })
          const r = await opsFetch(owner, `/api/_ops/events/export?${q}`)
          if (!r.ok || !r.body) throw new Error(`the running server (pid ${owner.pid}) answered ${r.status}`)
          const lines = createInterface({
            input: Readable.fromWeb(r.body as never),
            crlfDelay: Number.POSITIVE_INFINITY,
          })
          for await (const line of lines) if (line) yield JSON.parse(line) as StoredEvent
        },
        close: async () => {},
      }
    }
  }
  const lock = config.databaseUrl ? null : claimDataDir(config.dataDir)
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  return {
    latest: (limit, after) => latestEvents(store.db, limit, after),
    export: (since, until) => exportEvents(store.db, since, until),
    close: async () => {
      await store.close()
      lock?.release()
    },
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      n: { type: 'string', short: 'n', default: '20' },
      follow: { type: 'boolean', short: 'f', default: false },
      json: { type: 'boolean', default: false },
      since: { type: 'string' },
      until: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help || (positionals[0] !== 'tail' && positionals[0] !== 'export')) {
    console.log(USAGE)
    process.exit(values.help ? 0 : 1)
  }
  if (positionals[0] === 'export') return exportCommand(values)
  const count = Number(values.n)
  if (!Number.isInteger(count) || count < 1 || count > 1000) {
    console.error('-n: a whole number from 1 to 1000')
    process.exit(1)
  }
  const source = await openSource()
  const print = (events: StoredEvent[]) => {
    for (const e of [...events].reverse()) console.log(values.json ? JSON.stringify(e) : formatEvent(e))
  }
  try {
    const first = await source.latest(count)
    if (first.length === 0 && !values.follow) console.log('no events yet')
    print(first)
    let last = first[0]?.received_at
    while (values.follow) {
      await new Promise((r) => setTimeout(r, 1000))
      const next = await source.latest(1000, last)
      print(next)
      last = next[0]?.received_at ?? last
    }
  } finally {
    await source.close()
  }
}

async function exportCommand(values: { since?: string; until?: string; json?: boolean }): Promise<void> {
  const date = (v: string | undefined, name: string) => {
    const t = v === undefined ? Number.NaN : Date.parse(v)
    if (Number.isNaN(t)) {
      console.error(`--${name}: an ISO date is required (e.g. 2026-11-01T00:00:00Z)`)
      process.exit(1)
    }
    return new Date(t)
  }
  const since = date(values.since, 'since')
  const until = date(values.until, 'until')
  const source = await openSource()
  try {
    for await (const e of source.export(since, until)) {
      // Waits for stdout to drain, so memory stays bounded when the reader is slower than the store.
      if (!process.stdout.write(`${values.json ? JSON.stringify(e) : formatEvent(e)}\n`))
        await once(process.stdout, 'drain')
    }
  } finally {
    await source.close()
  }
}

try {
  await main()
} catch (e) {
  console.error(
    e instanceof ConfigError ? `Configuration error: ${e.message}` : `events: ${(e as Error).message}`,
  )
  process.exit(1)
}
