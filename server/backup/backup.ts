/**
 * `npm run backup -- DIR` (docs/decisions/0310): the PGlite store and the content repository taken so
 * that they agree, the preview key beside them, and a manifest written last.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bundleRefs, git, readHead, readRefs, sameRefs } from './git-snapshot'
import {
  BACKUP_FILES,
  BACKUP_FORMAT_VERSION,
  type BackupManifest,
  BackupRefused,
  describeFile,
  MANIFEST_FILE,
} from './manifest'
import { inspectStoreDump } from './store-dump'

/**
 * How often the store dump is taken again when the content repository's refs moved while it was
 * taken (a publish or a control-center edit at that moment).
 */
export const BACKUP_CONSISTENCY_ATTEMPTS = 5

export interface StoreDump {
  /** The gzipped tarball of the PGlite data folder. */
  tar: Buffer
  /** The commit the running server served when it took the dump; null when no server runs. */
  liveCommit: string | null
  /** How long taking it held the store's writer, in ms (docs/decisions/0724). */
  writerHeldMs?: number
}

export interface BackupOptions {
  dir: string
  dataDir: string
  contentGitDir: string
  /** Takes the store dump; null when the store is PostgreSQL (not covered here). */
  dumpStore: (() => Promise<StoreDump>) | null
  /**
   * Also copy the signing key (preview links and resume links; `--include-keys`). Off by default: a
   * backup holds data, not credentials (docs/decisions/0721).
   */
  includeKeys?: boolean
}

/** Writes the backup into `dir` (missing or empty); returns its manifest. */
export async function writeBackup(o: BackupOptions): Promise<BackupManifest> {
  if (existsSync(o.dir) && readdirSync(o.dir).length)
    throw new BackupRefused(`${o.dir} is not empty: back up into a new or empty folder`)
  mkdirSync(o.dir, { recursive: true })
  const bundle = join(o.dir, BACKUP_FILES.content)
  let refs: Record<string, string> | null = null
  let dump: StoreDump | null = null
  for (let attempt = 1; ; attempt++) {
    // The refs first, then the store, then the bundle: when the bundle holds exactly the refs read
    // before the dump, no ref moved while the dump was taken, so the store and the repository agree.
    refs = readRefs(o.contentGitDir)
    dump = o.dumpStore ? await o.dumpStore() : null
    if (!refs || !Object.keys(refs).length) break
    rmSync(bundle, { force: true })
    git(o.contentGitDir, ['bundle', 'create', '--quiet', bundle, '--all'])
    if (sameRefs(bundleRefs(o.contentGitDir, bundle), refs)) break
    if (attempt === BACKUP_CONSISTENCY_ATTEMPTS)
      throw new Error(
        `the content repository kept changing during ${attempt} attempts (publishes or edits): try again when it is quieter`,
      )
  }
  const hasContent = !!refs && Object.keys(refs).length > 0
  const names: string[] = hasContent ? [BACKUP_FILES.content] : []
  let schemaVersion: number | null = null
  let rowCounts: Record<string, number> = {}
  let liveCommit: string | null = null
  if (dump) {
    writeFileSync(join(o.dir, BACKUP_FILES.store), dump.tar)
    names.push(BACKUP_FILES.store)
    const inspected = await inspectStoreDump(dump.tar)
    schemaVersion = inspected.schemaVersion
    rowCounts = inspected.rowCounts
    liveCommit = dump.liveCommit ?? inspected.latestPublication
  }
  if (liveCommit && hasContent && !reachableFrom(o.contentGitDir, liveCommit, Object.values(refs!)))
    throw new Error(
      `the live commit ${liveCommit} is not in the content repository's refs: no consistent backup`,
    )
  const key = join(o.dataDir, BACKUP_FILES.previewKey)
  if (o.includeKeys && existsSync(key)) {
    copyFileSync(key, join(o.dir, BACKUP_FILES.previewKey))
    names.push(BACKUP_FILES.previewKey)
  }
  const manifest: BackupManifest = {
    formatVersion: BACKUP_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    store: o.dumpStore ? 'pglite' : 'postgres',
    schemaVersion,
    liveCommit,
    content: hasContent ? { refs: refs!, head: readHead(o.contentGitDir) } : null,
    rowCounts,
    files: await Promise.all(names.map((n) => describeFile(o.dir, n))),
    contents: describeContents(names, !!o.dumpStore),
  }
  // Last: a folder without it is an unfinished backup, and restore says so.
  writeFileSync(join(o.dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
  return manifest
}

/** What the backup holds and what it leaves out, in words, for whoever finds the folder. */
function describeContents(names: readonly string[], pglite: boolean): string[] {
  const lines: string[] = []
  for (const n of names) {
    if (n === BACKUP_FILES.store)
      lines.push(
        `${n}: the PGlite store's PostgreSQL files only (staff users with password hashes, sessions as hashes, audit log, consent records, events, answers, leads)`,
      )
    if (n === BACKUP_FILES.content)
      lines.push(`${n}: the content repository (every branch, archive and the published history)`)
    if (n === BACKUP_FILES.previewKey)
      lines.push(
        `${n}: THE SIGNING KEY of preview and resume links (--include-keys): whoever holds it can make them; keep this backup as secret as the server`,
      )
  }
  if (!pglite) lines.push('not the PostgreSQL database: back it up with pg_dump or pg_basebackup')
  if (!names.includes(BACKUP_FILES.previewKey))
    lines.push(
      'no signing key (preview and resume links made before the restore stop working; --include-keys copies it)',
    )
  lines.push('no operator token or socket, no run file: those belong to a running server, never to a backup')
  return lines
}

function reachableFrom(gitDir: string, commit: string, tips: string[]): boolean {
  try {
    return git(gitDir, ['rev-list', '--count', commit, '--not', ...tips]).trim() === '0'
  } catch {
    return false
  }
}
