import { execFileSync } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openPglite } from '../store/pglite-db'
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
    // Without --include-keys the key stays behind, and the manifest says so.
    const keyless = await writeBackup({
      dir: join(scratch, 'keyless'),
      dataDir,
      contentGitDir: repo,
      dumpStore: null,
    })
    expect(keyless.files.map((f) => f.name)).toEqual(['content.bundle'])
    expect(keyless.contents).toEqual(expect.arrayContaining([expect.stringMatching(/^no signing key/)]))
    const manifest = await writeBackup({
      dir,
      dataDir,
      contentGitDir: repo,
      dumpStore: null,
      includeKeys: true,
    })
    expect(manifest.store).toBe('postgres')
    expect(manifest.content?.head).toBe('refs/heads/published')
    expect(manifest.files.map((f) => f.name)).toEqual(['content.bundle', 'preview.key'])
    expect(manifest.contents).toEqual(
      expect.arrayContaining([expect.stringMatching(/^preview\.key: THE SIGNING KEY/)]),
    )
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

describe('a PGlite backup holds data, not credentials (issue 36)', () => {
  it('no operator token, run file, key or repository of the data folder is in any file of it, and it restores', async () => {
    const dataDir = join(scratch, 'data')
    const token = `tok-${'s3cr3t'.repeat(8)}`
    const key = `key-${'k3y'.repeat(20)}`
    const db = await openPglite(dataDir)
    try {
      await db.query('CREATE TABLE schema_migrations (version integer)')
      await db.query('CREATE TABLE kept (v text)')
      await db.query("INSERT INTO kept VALUES ('row-1')")
      // What else a data folder holds: a server's files, the key, the content repository.
      writeFileSync(join(dataDir, 'server.json'), JSON.stringify({ pid: 1, token }))
      writeFileSync(join(dataDir, 'preview.key'), key)
      mkdirSync(join(dataDir, 'content.git'))
      writeFileSync(join(dataDir, 'content.git', 'config'), `[secret]\n  token = ${token}\n`)
      const dir = join(scratch, 'backup')
      const manifest = await writeBackup({
        dir,
        dataDir,
        contentGitDir: join(scratch, 'no-repo'),
        dumpStore: async () => ({
          tar: (await db.dumpDataDir!()).archive,
          liveCommit: null,
        }),
      })
      expect(manifest.files.map((f) => f.name)).toEqual(['store.tar.gz'])
      expect(manifest.rowCounts.kept).toBe(1)
      // Every file of the backup, and the store's archive unpacked, searched for the token and the key.
      const seen: string[] = []
      for (const name of readdirSync(dir)) {
        const bytes = readFileSync(join(dir, name))
        const texts = [bytes.toString('latin1')]
        if (name.endsWith('.gz')) texts.push(gunzipSync(bytes).toString('latin1'))
        for (const t of texts) {
          expect(t.includes(token), `${name} holds the operator token`).toBe(false)
          expect(t.includes(key), `${name} holds the signing key`).toBe(false)
          expect(t.includes('server.json') || t.includes('content.git'), name).toBe(false)
        }
        seen.push(name)
      }
      expect(seen.sort()).toEqual(['manifest.json', 'store.tar.gz'])
      const target = join(scratch, 'restored')
      const { lines } = await restore(dir, target)
      expect(lines[0]).toMatch(/^store: PGlite in .* 1 rows/)
      const back = await openPglite(target)
      try {
        expect((await back.query<{ v: string }>('SELECT v FROM kept')).rows).toEqual([{ v: 'row-1' }])
      } finally {
        await back.close()
      }
    } finally {
      await db.close()
    }
  }, 120_000)
})
