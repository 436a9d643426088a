/**
 * Every move of live is on the record (issue 37, docs/decisions/0620): a `git push` to the server's
 * bare repository that is a fast-forward of valid content goes live as a publication naming the
 * pusher; one that is not a fast-forward is refused naming the control center's rollback; a ref moved
 * by hand on the server is recorded, within the reconcile interval, as moved outside the control
 * center with the publishers' banner; pushes to any other ref are refused. Real git, the real server
 * (createApp), PGlite in memory.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ContentFleet } from '../../content/content-fleet'
import { PUBLISHED_REF } from '../../content/git/branch-name'
import { type CcHarness, startCcHarness } from './cc-test-harness'

const GROCERY = 'definitions/pages/grocery.json'

describe('every move of live is on the record', { timeout: 240_000 }, () => {
  let h: CcHarness<'pat' | 'vic'>
  let work: string
  let good: string
  const gitIn = (...args: string[]) =>
    spawnSync('git', ['-C', work, '-c', 'user.name=Dev', '-c', 'user.email=dev@x.test', ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    })
  const headline = (text: string) => (t: string) => {
    const doc = JSON.parse(t)
    doc.headline = text
    return `${JSON.stringify(doc, null, 2)}\n`
  }
  /** Resets the clone to `commit`, edits the grocery page's headline, commits with `message`. */
  const commitOnClone = (commit: string, text: string, message = `headline ${text}`) => {
    expect(gitIn('fetch', '-q', 'origin').status).toBe(0)
    expect(gitIn('reset', '-q', '--hard', commit).status).toBe(0)
    const file = join(work, GROCERY)
    writeFileSync(file, headline(text)(readFileSync(file, 'utf8')))
    expect(gitIn('commit', '-qam', message).status).toBe(0)
    return gitIn('rev-parse', 'HEAD').stdout.trim()
  }
  const published = () => h.cc.repository.repo.resolve(PUBLISHED_REF)
  const servedHeadline = () => h.opened.snapshots.current.pages.get('grocery')?.headline
  const history = async () =>
    (await h.call('vic', 'GET', '/api/cc/publications')).json.publications as {
      id: string
      kind: string
      oldCommit: string | null
      newCommit: string
      actor: { id: string; name: string } | null
    }[]
  const auditOf = async (action: string) =>
    (
      await h.store.db.query<{ actor: string | null; details: Record<string, unknown> }>(
        'SELECT actor, details FROM audit_log WHERE action = $1 ORDER BY id',
        [action],
      )
    ).rows

  beforeAll(async () => {
    h = await startCcHarness({
      prefix: 'fw-live-record-',
      staff: { pat: { name: 'Pat', role: 'publisher' }, vic: { name: 'Vic', role: 'viewer' } },
    })
    good = (await published())!
    work = join(h.dir, 'work')
    expect(spawnSync('git', ['clone', '-q', h.config.contentGitDir, work]).status).toBe(0)
  }, 120_000)
  afterAll(() => h?.close(), 60_000)

  it('a fast-forward push of valid content goes live, in Live history and the audit log with the pusher (committer, or Staff-Id)', async () => {
    const first = commitOnClone(good, 'Pushed by the committer')
    const pushed = gitIn('push', 'origin', 'HEAD:published')
    expect(pushed.status, pushed.stderr).toBe(0)
    await h.cc.fleet.reconcile()
    expect(h.cc.live.commit).toBe(first)
    expect(servedHeadline()).toBe('Pushed by the committer')
    const [row] = await history()
    expect(row).toMatchObject({ kind: 'push', oldCommit: good, newCommit: first })
    expect(row.actor?.name).toBe('Dev <dev@x.test>')
    expect(await auditOf('live.pushed')).toEqual([
      expect.objectContaining({
        actor: 'Dev <dev@x.test>',
        details: expect.objectContaining({ from: good, to: first, fastForward: true, paths: [GROCERY] }),
      }),
    ])
    // Noticed again (another reconcile, GET /api/cc/live): recorded once.
    await h.cc.fleet.reconcile()
    expect((await h.call('pat', 'GET', '/api/cc/live')).json.movedOutside).toBeNull()
    expect((await history()).filter((p) => p.newCommit === first)).toHaveLength(1)

    // A commit with a Staff-Id trailer names that staff user.
    const second = commitOnClone(first, 'Pushed by Pat', `headline\n\nStaff-Id: ${h.staff.pat.id}\n`)
    expect(gitIn('push', 'origin', 'HEAD:published').status).toBe(0)
    await h.cc.fleet.reconcile()
    const [latest] = await history()
    expect(latest).toMatchObject({ kind: 'push', oldCommit: first, newCommit: second })
    expect(latest.actor).toMatchObject({ id: h.staff.pat.id, name: 'Pat' })
    expect((await auditOf('live.pushed')).at(-1)?.actor).toBe(h.staff.pat.id)
  })

  it('git push -f of an older commit to published is refused, naming the rollback; live stays', async () => {
    const before = await published()
    expect(gitIn('reset', '-q', '--hard', good).status).toBe(0)
    const forced = gitIn('push', '-f', 'origin', 'HEAD:published')
    expect(forced.status).not.toBe(0)
    expect(forced.stderr).toMatch(/remote: refused: refs\/heads\/published at \w{12}: not a fast-forward/)
    expect(forced.stderr).toContain('Roll back to before this')
    expect(forced.stderr).toContain('Live history')
    expect(await published()).toBe(before)
    // A rewound branch that is not published is a staff branch's business: allowed.
    expect(gitIn('push', '-f', 'origin', 'HEAD:cc/rewound').status).toBe(0)
  })

  it('pushes to refs/heads/other, refs/heads/Published, a tag and refs/archive/... are refused with one line', async () => {
    commitOnClone(good, 'Junk')
    expect(gitIn('tag', '-f', 'v1').status).toBe(0)
    for (const ref of [
      'refs/heads/other',
      'refs/heads/Published',
      'refs/tags/v1',
      'refs/archive/cc/x-1',
      'refs/archive/cc/rewound-1700000000000',
      'refs/heads/cc/Not_A_Name',
    ]) {
      const r = gitIn('push', 'origin', `HEAD:${ref}`)
      expect(r.status, ref).not.toBe(0)
      const refused = r.stderr.split('\n').filter((l) => l.startsWith('remote: refused:'))
      expect(refused, r.stderr).toHaveLength(1)
      expect(refused[0]).toContain(ref)
      expect(
        spawnSync('git', ['--git-dir', h.config.contentGitDir, 'rev-parse', '-q', '--verify', ref]).status,
      ).not.toBe(0)
    }
    // The server's own archive ref (new, at the head of the branch it names) still passes.
    const head = spawnSync(
      'git',
      ['--git-dir', h.config.contentGitDir, 'rev-parse', 'refs/heads/cc/rewound'],
      {
        encoding: 'utf8',
      },
    ).stdout.trim()
    expect(gitIn('push', 'origin', `${head}:refs/archive/cc/rewound-1700000000000`).status).toBe(0)
  })

  it('published moved by hand on the server shows in Live history as moved outside the control center within the reconcile interval, with the banner', async () => {
    const before = (await published())!
    const fleet = new ContentFleet({
      live: h.cc.live,
      publisher: h.cc.publisher,
      db: h.store.db,
      databaseUrl: null,
      reconcileMs: 400,
      scheduleMs: 3_600_000,
      listen: false,
    })
    // Back to the first import, by hand: no hook runs.
    const moved = spawnSync('git', [
      '--git-dir',
      h.config.contentGitDir,
      'update-ref',
      PUBLISHED_REF,
      good,
      before,
    ])
    expect(moved.status).toBe(0)
    fleet.start()
    try {
      await vi.waitFor(
        async () => {
          const [row] = await history()
          expect(row).toMatchObject({ kind: 'outside', oldCommit: before, newCommit: good, actor: null })
        },
        { timeout: 30_000, interval: 200 },
      )
    } finally {
      await fleet.stop()
    }
    expect(h.cc.live.commit).toBe(good)
    expect(servedHeadline()).not.toBe('Pushed by Pat')
    expect(await auditOf('live.moved-outside')).toEqual([
      expect.objectContaining({
        actor: null,
        details: expect.objectContaining({ from: before, to: good, fastForward: false }),
      }),
    ])
    const banner = (await h.call('pat', 'GET', '/api/cc/live')).json
    expect(banner.movedOutside).toMatchObject({ from: before, to: good })

    // A publish through the control center clears the banner.
    expect((await h.call('pat', 'POST', '/api/cc/branches', { title: 'After', name: 'after' })).status).toBe(
      201,
    )
    await h.commitEdit('pat', 'after', GROCERY, (d) => {
      d.headline = 'Published again'
    })
    const head = (await h.call('pat', 'GET', '/api/cc/branches/after')).json.branch.head
    expect(
      (await h.call('pat', 'POST', '/api/cc/branches/after/publish', { expectedHead: head })).status,
    ).toBe(200)
    expect((await h.call('pat', 'GET', '/api/cc/live')).json.movedOutside).toBeNull()
  })
})
