/**
 * npm run backup -- DIR
 *
 * Writes a consistent backup of the data into DIR (new or empty; docs/decisions/0310): the PGlite store
 * (through the running server when one holds DATA_DIR, else from the folder itself), the content
 * repository as a git bundle, the preview key, and manifest.json (format, schema migration, live
 * commit, rows per table, files with sizes and SHA-256). With DATABASE_URL it backs up the content
 * repository only and says which PostgreSQL tool covers the database. `npm run restore -- DIR` brings
 * it back.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { LIVE_COMMIT_HEADER, WRITER_HELD_HEADER } from '../api/ops-backup'
import { type StoreDump, writeBackup } from '../backup/backup'
import { loadConfig } from '../config'
import { describeServer, pickServer, runningServers } from '../runtime/running-servers'
import { claimDataDir, readDataDirOwner } from '../store/data-dir-lock'
import { openPglite } from '../store/pglite-db'
import { folderArgument, runCli } from './cli-main'
import { opsFetch, reachable } from './ops-request'

const USAGE = 'usage: npm run backup -- DIR [--include-keys]   (DIR: a new or empty folder)'

const POSTGRES_NOT_COVERED =
  'not covered: the PostgreSQL database (DATABASE_URL) — staff, audit log, consent records, events. Back it up with pg_dump (e.g. pg_dump -Fc "$DATABASE_URL" > funnelworks.dump) or pg_basebackup, taken right after this backup'

/** Where the store dump comes from: the server that holds the folder, else the folder itself. */
function storeDumper(dataDir: string, taken: (dump: StoreDump) => void): () => Promise<StoreDump> {
  const dumpOnce = async (): Promise<StoreDump> => {
    const owner = readDataDirOwner(dataDir)
    if (reachable(owner)) {
      const r = await opsFetch(owner, '/api/_ops/store-dump')
      if (!r.ok)
        throw new Error(`the running server (pid ${owner.pid}) answered ${r.status}: ${await r.text()}`)
      return {
        tar: Buffer.from(await r.arrayBuffer()),
        liveCommit: r.headers.get(LIVE_COMMIT_HEADER) || null,
        writerHeldMs: Number(r.headers.get(WRITER_HELD_HEADER)) || 0,
      }
    }
    if (!existsSync(join(dataDir, 'PG_VERSION'))) throw new Error(`DATA_DIR ${dataDir} holds no data store`)
    const lock = claimDataDir(dataDir)
    try {
      const db = await openPglite(dataDir)
      try {
        const dump = await db.dumpDataDir!()
        return { tar: dump.archive, liveCommit: null, writerHeldMs: dump.writerHeldMs }
      } finally {
        await db.close()
      }
    } finally {
      lock.release()
    }
  }
  return async () => {
    const dump = await dumpOnce()
    taken(dump)
    return dump
  }
}

async function main(): Promise<void> {
  // The signing key only when asked for (docs/decisions/0721).
  const includeKeys = process.argv.includes('--include-keys')
  if (includeKeys) process.argv.splice(process.argv.indexOf('--include-keys'), 1)
  const dir = folderArgument(USAGE)
  const config = loadConfig()
  let dataDir = config.dataDir
  let contentGitDir = config.contentGitDir
  if (!config.databaseUrl) {
    const server = pickServer(
      runningServers(config.projectRoot),
      !!process.env.DATA_DIR?.trim(),
      (s) => s.dataDir === config.dataDir,
    )
    if (server?.store === 'postgres')
      throw new Error(
        `the running server (${describeServer(server)}) keeps its data in PostgreSQL: run with its DATABASE_URL`,
      )
    if (server) {
      dataDir = server.dataDir
      contentGitDir = server.contentGitDir ?? contentGitDir
    }
  }
  let writerHeldMs: number | null = null
  const manifest = await writeBackup({
    dir,
    dataDir,
    contentGitDir,
    dumpStore: config.databaseUrl
      ? null
      : storeDumper(dataDir, (d) => {
          writerHeldMs = d.writerHeldMs ?? null
        }),
    includeKeys,
  })
  const rows = Object.values(manifest.rowCounts).reduce((a, b) => a + b, 0)
  console.log(`backup written to ${dir}`)
  if (manifest.store === 'pglite')
    console.log(
      `  store: PGlite from ${dataDir}, schema migration ${manifest.schemaVersion}, ${rows} rows${writerHeldMs === null ? '' : `; writes waited ${Math.round(writerHeldMs)} ms for the snapshot`}`,
    )
  console.log(
    manifest.content
      ? `  content: ${Object.keys(manifest.content.refs).length} refs from ${contentGitDir}${manifest.liveCommit ? `, live ${manifest.liveCommit}` : ''}`
      : `  content: no repository at ${contentGitDir} (nothing to back up)`,
  )
  for (const f of manifest.files) console.log(`  ${f.name}  ${f.size} bytes  sha256 ${f.sha256}`)
  if (config.databaseUrl) console.log(POSTGRES_NOT_COVERED)
}

if (import.meta.url === `file://${process.argv[1]}`) await runCli('backup', main)
