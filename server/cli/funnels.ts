/**
 * npm run funnels -- dropoff <funnel-id> [--since ISO] [--until ISO] [--by brand|page|source|device|variant] [--json]
 *
 * A funnel's drop-off (issue 29, docs/decisions/0313): per step, the browsers that reached it, submitted
 * it, and where they went next. Asks the running server when one holds the PGlite folder (DATA_DIR) —
 * the same answer as the control center's funnel screen, from the content it serves; otherwise reads
 * the store the server is configured with (PGlite or DATABASE_URL) and the funnel from DEFINITIONS_DIR.
 */
import { parseArgs } from 'node:util'
import { EVENT_TIMESTAMP_MAX_MS, EVENT_TIMESTAMP_MIN_MS } from '../../engine/constants'
import { loadConfig } from '../config'
import { SnapshotStore } from '../content/snapshot-store'
import { claimDataDir, readDataDirOwner } from '../store/data-dir-lock'
import {
  DROPOFF_DIMENSIONS,
  type DropoffDimension,
  type DropoffReport,
  type DropoffTable,
  funnelDropoff,
  funnelScope,
} from '../store/funnel-dropoff'
import { openStore } from '../store/open-store'
import { runCli } from './cli-main'
import { opsFetch, reachable } from './ops-request'

const USAGE = `usage: npm run funnels -- dropoff <funnel-id> [--since ISO-DATE] [--until ISO-DATE] [--by ${DROPOFF_DIMENSIONS.join('|')}] [--json]
  default range: the 30 days before --until (default now)`

const DAY_MS = 86_400_000
const DEFAULT_DAYS = 30

class UsageError extends Error {}

function dateOption(v: string | undefined, name: string): Date | null {
  if (v === undefined) return null
  const t = Date.parse(v)
  if (Number.isNaN(t))
    throw new UsageError(`--${name}: "${v}" is not an ISO date (e.g. 2026-11-01T00:00:00Z)`)
  return new Date(t)
}

async function dropoff(
  funnel: string,
  since: Date,
  until: Date,
  by: DropoffDimension | null,
): Promise<DropoffReport> {
  const config = loadConfig()
  const owner = config.databaseUrl ? null : readDataDirOwner(config.dataDir)
  if (reachable(owner)) {
    const q = new URLSearchParams({
      since: since.toISOString(),
      until: until.toISOString(),
      ...(by ? { by } : {}),
    })
    const r = await opsFetch(owner, `/api/_ops/funnels/${encodeURIComponent(funnel)}/dropoff?${q}`)
    const body = (await r.json().catch(() => null)) as (DropoffReport & { error?: string }) | null
    if (!r.ok) throw new Error(body?.error ?? `the running server (pid ${owner.pid}) answered ${r.status}`)
    return body as DropoffReport
  }
  const scope = funnelScope(SnapshotStore.load(config.definitionsDir, config.projectRoot).current, funnel)
  if (!scope) throw new UsageError(`unknown funnel "${funnel}" (no definitions/funnels/${funnel}.json)`)
  const lock = config.databaseUrl ? null : claimDataDir(config.dataDir)
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  try {
    return await funnelDropoff(store.db, { funnel, ...scope, since, until, by })
  } finally {
    await store.close()
    lock?.release()
  }
}

const pct = (n: number, of: number) => (of ? `${Math.round((100 * n) / of)}%` : '—')

/** One table: a line per step. */
function formatTable(t: DropoffTable): string[] {
  const head = ['step', 'reached', 'submitted', 'next: on', 'back', 'completed', 'left']
  const rows = t.steps.map((s) => {
    const on = Object.values(s.forward).reduce((a, b) => a + b, 0)
    return [
      `${s.position ?? '–'}. ${s.step}`,
      String(s.reached),
      `${s.submitted} (${pct(s.submitted, s.reached)})`,
      String(on),
      String(s.back),
      String(s.completed),
      `${s.left} (${pct(s.left, s.reached)})`,
    ]
  })
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  return [line(head), ...rows.map(line)]
}

function formatReport(r: DropoffReport): string {
  const out = [
    `funnel ${r.funnel} — pages ${r.pages.join(', ') || '(none)'}`,
    `browsers whose first step view was in ${r.since} … ${r.until} (bots left out): ${r.visitors}`,
    '',
    ...formatTable(r),
  ]
  for (const s of r.segments)
    out.push('', `${r.by} = ${s.segment}: ${s.visitors} browsers`, ...formatTable(s))
  return out.join('\n')
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      since: { type: 'string' },
      until: { type: 'string' },
      by: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help || positionals[0] !== 'dropoff' || positionals.length !== 2) {
    console.log(USAGE)
    process.exit(values.help ? 0 : 1)
  }
  try {
    if (values.by !== undefined && !(DROPOFF_DIMENSIONS as readonly string[]).includes(values.by))
      throw new UsageError(`--by: must be one of ${DROPOFF_DIMENSIONS.join(', ')}`)
    const until = dateOption(values.until, 'until') ?? new Date()
    const since = dateOption(values.since, 'since') ?? new Date(until.getTime() - DEFAULT_DAYS * DAY_MS)
    if (since >= until) throw new UsageError('--since: must be before --until')
    if (since.getTime() < EVENT_TIMESTAMP_MIN_MS || until.getTime() > EVENT_TIMESTAMP_MAX_MS)
      throw new UsageError('--since, --until: the range must lie within 1970 … 9999')
    const report = await dropoff(positionals[1], since, until, (values.by as DropoffDimension) ?? null)
    console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report))
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    console.error(`funnels: ${e.message}`)
    process.exit(1)
  }
}

await runCli('funnels', main)
