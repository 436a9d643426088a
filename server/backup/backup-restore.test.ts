import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeBackup } from './backup'
import { readRefs } from './git-snapshot'
import { BACKUP_FORMAT_VERSION, type BackupManifest, describeFile, MANIFEST_FILE } from './manifest'
import { knownSchemaVersion, restoreBackup } from './restore'

let scratch: string
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'fw-backup-unit-'))
})
afterEach(() => rmSync(scratch, { recursive: true, force: true }))

/** A backup folder with a (stand-in) store dump and the manifest that lists it. */
async function fakeBackup(overrides: Partial<BackupManifest> = {}): Promise<string> {
  const dir = join(scratch, 'backup')
  mkdirSync(dir)
  writeFileSync(join(dir, 'store.tar.gz'), 'x'.repeat(4096))
  writeFileSync(join(dir, 'preview.key'), 'k'.repeat(64))
  const manifest: BackupManifest = {
    formatVersion: BACKUP_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    store: 'pglite',
    schemaVersion: knownSchemaVersion(),
    liveCommit: null,
    content: null,
    rowCounts: {},
    files: [await describeFile(dir, 'store.tar.gz'), await describeFile(dir, 'preview.key')],
    ...overrides,
  }
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest))
  return dir
}

const restore = (dir: string, dataDir = join(scratch, 'data')) =>
  restoreBackup({ dir, dataDir, contentGitDir: join(dataDir, 'content.git'), databaseUrl: null })

describe('restore refuses what it must not restore (docs/decisions/0310)', () => {
  it('a folder without a manifest', async () => {
    const dir = join(scratch, 'empty')
    mkdirSync(dir)
    await expect(restore(dir)).rejects.toThrow(
      `${join(dir, MANIFEST_FILE)} is missing: ${dir} is not a complete backup`,
    )
  })

  it('a truncated, damaged or missing file, naming each', async () => {
    const dir = await fakeBackup()
    truncateSync(join(dir, 'store.tar.gz'), 100)
    writeFileSync(join(dir, 'preview.key'), 'j'.repeat(64))
    await expect(restore(dir)).rejects.toThrow(
      `${dir} is not a complete backup, refusing to restore: store.tar.gz has 100 bytes, the manifest says 4096; preview.key does not match its SHA-256 checksum`,
    )
    rmSync(join(dir, 'store.tar.gz'))
    await expect(restore(dir)).rejects.toThrow('store.tar.gz is missing')
  })

  it('a store dump the manifest does not list', async () => {
    const dir = await fakeBackup({ files: [] })
    await expect(restore(dir)).rejects.toThrow('store.tar.gz is not listed in the manifest')
  })

  it('a backup from a newer schema or format', async () => {
    const newer = knownSchemaVersion() + 1
    await expect(restore(await fakeBackup({ schemaVersion: newer }))).rejects.toThrow(
      `the backup's store has schema migration ${newer}, newer than this code knows (${knownSchemaVersion()})`,
    )
    rmSync(join(scratch, 'backup'), { recursive: true })
    await expect(restore(await fakeBackup({ formatVersion: BACKUP_FORMAT_VERSION + 1 }))).rejects.toThrow(
      `the backup's format ${BACKUP_FORMAT_VERSION + 1} is newer than this code knows`,
    )
  })

  it('a DATA_DIR that is not empty, and leaves it as it was', async () => {
    const dir = await fakeBackup()
    const dataDir = join(scratch, 'data')
    mkdirSync(dataDir)
    writeFileSync(join(dataDir, 'PG_VERSION'), '17\n')
    await expect(restore(dir, dataDir)).rejects.toThrow(`DATA_DIR ${dataDir} is not empty`)
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8')).toBe('17\n')
  })

  it('a PGlite backup while DATABASE_URL is set', async () => {
    const dir = await fakeBackup()
    await expect(
      restoreBackup({
        dir,
        dataDir: join(scratch, 'd'),
        contentGitDir: join(scratch, 'g'),
        databaseUrl: 'postgres://x',
      }),
    ).rejects.toThrow('the backup holds a PGlite store but DATABASE_URL is set')
  })
})

describe('with PostgreSQL: the content repository and preview key only', () => {
  it('round-trips every ref and HEAD through a bundle, and says the database is not covered', async () => {
    const repo = join(scratch, 'content.git')
    const work = join(scratch, 'work')
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', args, {
        cwd,
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@x',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@x',
        },
      })
    execFileSync('git', ['init', '-q', '--bare', '-b', 'published', repo])
    execFileSync('git', ['init', '-q', '-b', 'published', work])
    writeFileSync(join(work, 'a.txt'), 'a')
    git(work, 'add', '.')
    git(work, 'commit', '-qm', 'a')
    git(
      work,
      'push',
      '-q',
      repo,
      'published',
      'published:refs/heads/cc/spring',
      'published:refs/archive/cc/old-1',
    )
    const dataDir = join(scratch, 'data')
    mkdirSync(dataDir)
    writeFileSync(join(dataDir, 'preview.key'), 'k'.repeat(64))
    const dir = join(scratch, 'backup')
    const manifest = await writeBackup({ dir, dataDir, contentGitDir: repo, dumpStore: null })
    expect(manifest.store).toBe('postgres')
    expect(manifest.content?.head).toBe('refs/heads/published')
    expect(manifest.files.map((f) => f.name)).toEqual(['content.bundle', 'preview.key'])
    await expect(writeBackup({ dir, dataDir, contentGitDir: repo, dumpStore: null })).rejects.toThrow(
      `${dir} is not empty`,
    )

    const target = join(scratch, 'restored')
    const { lines } = await restoreBackup({
      dir,
      dataDir: target,
      contentGitDir: join(target, 'content.git'),
      databaseUrl: 'postgres://x',
    })
    expect(readRefs(join(target, 'content.git'))).toEqual(readRefs(repo))
    expect(Object.keys(readRefs(repo)!)).toHaveLength(3)
    expect(
      execFileSync('git', ['--git-dir', join(target, 'content.git'), 'symbolic-ref', 'HEAD'], {
        encoding: 'utf8',
      }).trim(),
    ).toBe('refs/heads/published')
    expect(lines[0]).toMatch(
      /^store: not in this backup \(PostgreSQL\): restore the database with pg_restore/,
    )
    expect(readFileSync(join(target, 'preview.key'), 'utf8')).toBe('k'.repeat(64))
  })
})
