import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../config'
import { GitSnapshotSource } from '../git-snapshot-source'
import { publicAssetExists } from '../read-definitions'
import { SnapshotStore } from '../snapshot-store'
import { BadBranchNameError, branchRef, checkBranchName, PUBLISHED_REF } from './branch-name'
import { ContentRepo, RefMovedError } from './content-repo'
import { commitWorkingTree } from './import-content'

const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'error' })

describe('content repository (bare, plumbing only)', () => {
  let dir: string
  let repo: ContentRepo
  let first: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fw-content-'))
    repo = await ContentRepo.open(join(dir, 'content.git'))
    first = await commitWorkingTree(repo, config, null, 'Import')
    await repo.updateRef(PUBLISHED_REF, first, null)
  }, 30_000)
  afterAll(() => {
    repo?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('imports definitions and public images as the first commit of published, with no working tree', async () => {
    expect(await repo.resolve(PUBLISHED_REF)).toBe(first)
    const paths = (await repo.lsTree(first)).map((e) => e.path)
    expect(paths).toContain('definitions/site.json')
    expect(paths.some((p) => p.startsWith('ui/public/images/'))).toBe(true)
    expect(paths.every((p) => p.startsWith('definitions/') || p.startsWith('ui/public/images/'))).toBe(true)
    expect((await repo.log(PUBLISHED_REF))[0].body).toMatch(/Imported from the code repository/)
    const { readdirSync } = await import('node:fs')
    expect(readdirSync(join(dir, 'content.git'))).not.toContain('definitions')
  })

  it('builds the same snapshot from the commit as from the working tree', async () => {
    const source = new GitSnapshotSource(repo, publicAssetExists(config.projectRoot))
    const result = await source.build(first)
    expect(result.ok).toBe(true)
    const worktree = SnapshotStore.load(config.definitionsDir, config.projectRoot)
    expect(result.ok && result.snapshot.id).toBe(worktree.current.id)
  })

  it('reads objects through cat-file --batch, missing ones as null', async () => {
    const site = await repo.readText(`${first}:definitions/site.json`)
    expect(JSON.parse(site!)).toHaveProperty('$schema')
    expect(await repo.read(`${first}:definitions/nope.json`)).toBeNull()
    const many = await Promise.all((await repo.lsTree(first)).slice(0, 40).map((e) => repo.read(e.sha)))
    expect(many.every((b) => b && b.length > 0)).toBe(true)
  })

  it('commits a change on a branch with a compare-and-swap that refuses a stale head', async () => {
    const ref = branchRef('spring-promo')
    await repo.updateRef(ref, first, null)
    await expect(repo.updateRef(ref, first, null)).rejects.toBeInstanceOf(RefMovedError)
    const next = await repo.commitFiles(
      first,
      [{ path: 'definitions/notes.json', content: '{}\n' }],
      'Add notes',
      {
        name: 'Ed',
        email: 'ed@x.test',
      },
    )
    await repo.updateRef(ref, next, first)
    expect(await repo.resolve(ref)).toBe(next)
    const other = await repo.commitFiles(first, [{ path: 'definitions/other.json', content: '[]' }], 'Other')
    await expect(repo.updateRef(ref, other, first)).rejects.toBeInstanceOf(RefMovedError)
    expect(await repo.resolve(ref)).toBe(next)
    expect(await repo.changedPaths(first, next)).toEqual(['definitions/notes.json'])
    const [log] = await repo.log(ref, 1)
    expect(log).toMatchObject({ author: 'Ed', email: 'ed@x.test', subject: 'Add notes' })
    const removed = await repo.commitFiles(
      next,
      [{ path: 'definitions/notes.json', content: null }],
      'Remove',
    )
    expect(await repo.blobAt(removed, 'definitions/notes.json')).toBeNull()
    expect(await repo.isAncestor(first, removed)).toBe(true)
    expect(await repo.isAncestor(other, removed)).toBe(false)
    expect(await repo.mergeBase(other, removed)).toBe(first)
  })

  it('writes blobs, trees and commits in process exactly as git does (fsck clean, same trees as git plumbing)', async () => {
    const changes = [
      { path: 'definitions/pages/grocery.json', content: '{"x":1}\n' },
      { path: 'definitions/new-dir/deep/a.json', content: '[]' },
      { path: 'definitions/site.json', content: null },
      { path: 'ui/public/images/uploads/x.webp', content: Buffer.from([0, 1, 2, 255]) },
    ]
    const fast = await repo.commitFiles(first, changes, 'Fast\n\nBody line\n\nStaff-Id: 1\n', {
      name: 'Ed <x>',
      email: 'ed@x.test',
    })
    repo.processWrites = true
    try {
      const slow = await repo.commitFiles(first, changes, 'Fast\n\nBody line\n\nStaff-Id: 1\n', {
        name: 'Ed <x>',
        email: 'ed@x.test',
      })
      expect(await repo.treeOf(fast)).toBe(await repo.treeOf(slow))
      // The log as git prints it, and as read from the commit object (max 1) in process.
      const [byGit] = await repo.log(fast, 2)
      repo.processWrites = false
      const [inProcess] = await repo.log(fast, 1)
      expect(inProcess).toEqual(byGit)
      expect(inProcess).toMatchObject({ author: 'Ed x', subject: 'Fast', body: 'Body line\n\nStaff-Id: 1' })
    } finally {
      repo.processWrites = false
    }
    expect(await repo.blobAt(fast, 'definitions/site.json')).toBeNull()
    expect(await repo.read(`${fast}:ui/public/images/uploads/x.webp`)).toEqual(Buffer.from([0, 1, 2, 255]))
    const { runGit } = await import('./git-process')
    expect((await runGit(repo.dir, ['fsck', '--strict', '--no-dangling'])).code).toBe(0)
    // The ref's compare-and-swap honours git's lock file: a writer holding it makes ours fail.
    const ref = branchRef('locked')
    const { writeFileSync, rmSync: rm } = await import('node:fs')
    await repo.updateRef(ref, first, null)
    writeFileSync(join(repo.dir, `${ref}.lock`), '')
    await expect(repo.updateRef(ref, fast, first)).rejects.toBeInstanceOf(RefMovedError)
    rm(join(repo.dir, `${ref}.lock`))
    await repo.updateRef(ref, fast, first)
    expect((await runGit(repo.dir, ['rev-parse', ref])).stdout.toString().trim()).toBe(fast)
    const empty = await repo.writeTree(null, [])
    expect(empty).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904')
  })

  it('refuses paths that escape the repository', async () => {
    for (const path of ['../x.json', '/abs.json', 'definitions/../x', '.git/config', 'a//b'])
      await expect(repo.commitFiles(first, [{ path, content: 'x' }], 'bad')).rejects.toThrow(
        /not a valid content path/,
      )
  })
})

describe('first start with invalid definitions', () => {
  it('refuses them and publishes nothing, so the next start imports again', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs')
    const { ContentRepository } = await import('../content-repository')
    const dir = mkdtempSync(join(tmpdir(), 'fw-content-bad-'))
    const src = { projectRoot: join(dir, 'code'), definitionsDir: join(dir, 'code', 'definitions') }
    mkdirSync(src.definitionsDir, { recursive: true })
    writeFileSync(join(src.definitionsDir, 'site.json'), '{ "broken": ')
    const content = await ContentRepository.open(join(dir, 'content.git'), null)
    try {
      const refuse = async () => {
        throw new Error('refused')
      }
      await expect(content.ensurePublished(src, refuse)).rejects.toThrow('refused')
      expect(await content.repo.resolve(PUBLISHED_REF)).toBeNull()
      const commit = await content.ensurePublished(src, async () => {})
      expect(await content.repo.resolve(PUBLISHED_REF)).toBe(commit)
    } finally {
      content.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('branch names', () => {
  it('accepts lower-case names with dashes and refuses others with a clear message', () => {
    for (const ok of ['spring-promo', 'a', '2026-q1', 'x'.repeat(63)])
      expect(() => checkBranchName(ok)).not.toThrow()
    for (const bad of ['', 'Spring', '-x', 'a_b', 'a/b', 'x'.repeat(64), 'a b', 'ü'])
      expect(() => checkBranchName(bad)).toThrow(BadBranchNameError)
    expect(() => checkBranchName('live')).toThrow(/reserved/)
    expect(() => checkBranchName('Bad Name')).toThrow(/"Bad Name" must be 1–63 lower-case letters/)
    expect(branchRef('live')).toBe('refs/heads/published')
    expect(branchRef('spring')).toBe('refs/heads/cc/spring')
  })
})
