/**
 * The backup folder's manifest (docs/decisions/0310): what was backed up, from which schema, and every
 * file with its size and SHA-256, so a restore can tell a complete backup from a truncated one.
 */
import { createHash } from 'node:crypto'
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** The manifest format this code writes and reads; a higher one is refused. */
export const BACKUP_FORMAT_VERSION = 1
export const MANIFEST_FILE = 'manifest.json'
/** The files of a backup folder. */
export const BACKUP_FILES = {
  store: 'store.tar.gz',
  content: 'content.bundle',
  previewKey: 'preview.key',
} as const

export interface BackupFile {
  name: string
  size: number
  sha256: string
}

export interface BackupManifest {
  formatVersion: number
  createdAt: string
  /** pglite: the store is in store.tar.gz; postgres: not backed up here (pg_dump / pg_basebackup). */
  store: 'pglite' | 'postgres'
  /** The highest schema migration applied in the backed-up store (schema_migrations); null for postgres. */
  schemaVersion: number | null
  /** The commit live content served (the running server's, else the latest publication); null if none. */
  liveCommit: string | null
  /** The content repository's refs (name → commit) as the bundle holds them, and its HEAD. */
  content: { refs: Record<string, string>; head: string | null } | null
  /** Rows per table of the backed-up store. */
  rowCounts: Record<string, number>
  files: BackupFile[]
  /** What the backup holds and leaves out, one line each (format 1 backups written before have none). */
  contents?: string[]
}

export class BackupRefused extends Error {}

export async function describeFile(dir: string, name: string): Promise<BackupFile> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(join(dir, name))) hash.update(chunk as Buffer)
  return { name, size: statSync(join(dir, name)).size, sha256: hash.digest('hex') }
}

/**
 * Reads the manifest and checks that every file it lists is there with its size and checksum, and that
 * this code knows its format and schema; throws BackupRefused naming what is wrong.
 */
export async function readCheckedManifest(dir: string, knownSchemaVersion: number): Promise<BackupManifest> {
  const path = join(dir, MANIFEST_FILE)
  if (!existsSync(path))
    throw new BackupRefused(
      `${path} is missing: ${dir} is not a complete backup (npm run backup writes it last)`,
    )
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8')) as BackupManifest
  } catch (e) {
    throw new BackupRefused(`${path} is not valid JSON (${(e as Error).message}): the backup is damaged`)
  }
  if (!Number.isInteger(manifest.formatVersion) || !Array.isArray(manifest.files))
    throw new BackupRefused(`${path} is not a backup manifest (no formatVersion or files)`)
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION)
    throw new BackupRefused(
      `the backup's format ${manifest.formatVersion} is newer than this code knows (${BACKUP_FORMAT_VERSION}): restore it with the version that wrote it`,
    )
  if (manifest.schemaVersion !== null && manifest.schemaVersion > knownSchemaVersion)
    throw new BackupRefused(
      `the backup's store has schema migration ${manifest.schemaVersion}, newer than this code knows (${knownSchemaVersion}): restore it with the version that wrote it`,
    )
  const problems: string[] = []
  for (const f of manifest.files) {
    const at = join(dir, f.name)
    if (!existsSync(at)) {
      problems.push(`${f.name} is missing`)
      continue
    }
    const found = await describeFile(dir, f.name)
    if (found.size !== f.size) problems.push(`${f.name} has ${found.size} bytes, the manifest says ${f.size}`)
    else if (found.sha256 !== f.sha256) problems.push(`${f.name} does not match its SHA-256 checksum`)
  }
  const listed = new Set(manifest.files.map((f) => f.name))
  if (manifest.store === 'pglite' && !listed.has(BACKUP_FILES.store))
    problems.push(`${BACKUP_FILES.store} is not listed in the manifest`)
  if (manifest.content && !listed.has(BACKUP_FILES.content))
    problems.push(`${BACKUP_FILES.content} is not listed in the manifest`)
  if (problems.length)
    throw new BackupRefused(`${dir} is not a complete backup, refusing to restore: ${problems.join('; ')}`)
  return manifest
}
