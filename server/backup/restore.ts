/**
 * `npm run restore -- DIR` (docs/decisions/0310): checks the backup whole, then brings the store, the
 * content repository and the preview key back into an empty DATA_DIR.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { listMigrations } from '../store/migrate'
import { PGLITE_SETTINGS } from '../store/pglite-db'
import { git, readRefs, sameRefs } from './git-snapshot'
import { BACKUP_FILES, type BackupManifest, BackupRefused, readCheckedManifest } from './manifest'

export interface RestoreOptions {
  dir: string
  dataDir: string
  contentGitDir: string
  /** Set when the server runs on PostgreSQL: the store is not restored here. */
  databaseUrl: string | null
}

/** The highest schema migration this code knows. */
export const knownSchemaVersion = () => Math.max(0, ...listMigrations().map((m) => m.version))

const isEmpty = (dir: string) => !existsSync(dir) || readdirSync(dir).length === 0

/** Restores the backup in `dir`; returns what it did, one line each. Throws BackupRefused when it may not. */
export async function restoreBackup(
  o: RestoreOptions,
): Promise<{ manifest: BackupManifest; lines: string[] }> {
  const manifest = await readCheckedManifest(o.dir, knownSchemaVersion())
  if (manifest.store === 'pglite' && o.databaseUrl)
    throw new BackupRefused(
      'the backup holds a PGlite store but DATABASE_URL is set: restore into a DATA_DIR without DATABASE_URL',
    )
  if (!isEmpty(o.dataDir))
    throw new BackupRefused(`DATA_DIR ${o.dataDir} is not empty: restore only into an empty or new folder`)
  const gitInsideData = resolve(o.contentGitDir).startsWith(`${resolve(o.dataDir)}/`)
  if (manifest.content && !gitInsideData && !isEmpty(o.contentGitDir))
    throw new BackupRefused(
      `CONTENT_GIT_DIR ${o.contentGitDir} is not empty: restore only into an empty or new folder`,
    )
  const lines: string[] = []
  mkdirSync(o.dataDir, { recursive: true })
  if (manifest.store === 'pglite') {
    const rows = await loadStore(join(o.dir, BACKUP_FILES.store), o.dataDir, manifest.rowCounts)
    lines.push(
      `store: PGlite in ${o.dataDir} (schema migration ${manifest.schemaVersion}, ${rows} rows, as the manifest counts)`,
    )
  } else {
    lines.push(
      'store: not in this backup (PostgreSQL): restore the database with pg_restore or from your pg_basebackup',
    )
  }
  if (manifest.content) {
    restoreRepository(join(o.dir, BACKUP_FILES.content), o.contentGitDir, manifest.content)
    lines.push(
      `content: ${Object.keys(manifest.content.refs).length} refs in ${o.contentGitDir}${manifest.liveCommit ? `, live ${manifest.liveCommit}` : ''}`,
    )
  }
  if (manifest.files.some((f) => f.name === BACKUP_FILES.previewKey)) {
    const key = join(o.dataDir, BACKUP_FILES.previewKey)
    copyFileSync(join(o.dir, BACKUP_FILES.previewKey), key)
    chmodSync(key, 0o600)
    lines.push(`preview key: ${key}`)
  }
  return { manifest, lines }
}

/**
 * Unpacks the dump into the data folder through PGlite itself, checks that every table holds the rows
 * the manifest counted, and closes it cleanly. Returns the number of rows.
 */
async function loadStore(
  tarPath: string,
  dataDir: string,
  expected: Record<string, number>,
): Promise<number> {
  const { PGlite } = await import('@electric-sql/pglite')
  const pg = await PGlite.create(dataDir, {
    loadDataDir: new Blob([readFileSync(tarPath)]),
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])],
  })
  try {
    const differ: string[] = []
    for (const [table, count] of Object.entries(expected)) {
      const r = await pg.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${table.replaceAll('"', '""')}"`,
      )
      if (r.rows[0].n !== count) differ.push(`${table}: ${r.rows[0].n} rows, the manifest says ${count}`)
    }
    if (differ.length)
      throw new Error(
        `the restored store does not hold what the backup counted (${differ.join('; ')}); ${dataDir} is not usable`,
      )
    return Object.values(expected).reduce((a, b) => a + b, 0)
  } finally {
    await pg.close()
  }
}

function restoreRepository(
  bundle: string,
  gitDir: string,
  content: NonNullable<BackupManifest['content']>,
): void {
  mkdirSync(gitDir, { recursive: true })
  git(gitDir, ['init', '--quiet', '--bare'])
  git(gitDir, ['fetch', '--quiet', bundle, 'refs/*:refs/*'])
  if (content.head) git(gitDir, ['symbolic-ref', 'HEAD', content.head])
  const refs = readRefs(gitDir) ?? {}
  if (!sameRefs(refs, content.refs))
    throw new Error(`the restored repository ${gitDir} does not hold the refs the manifest lists`)
}
