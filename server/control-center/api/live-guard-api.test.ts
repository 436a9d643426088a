/**
 * Live only moves through the gates, whatever moves it (issue 27, docs/decisions/0610): the plain git
 * client pushing to the server's own bare repository meets its pre-receive hook; with the hook
 * removed, a bad commit on published is never served, never stops a start, shows on /healthz and is
 * restored by a publisher, audited. Real git, the real server (createApp), PGlite in memory.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createApp } from '../../app'
import { checkCommand } from '../../cli/content-check'
import { type OpenedContent, openContent, startContentServices } from '../../content/content-services'
import { PUBLISHED_REF } from '../../content/git/branch-name'
import { type CcHarness, HELD_FLEET, startCcHarness } from './cc-test-harness'

const SITE = 'definitions/site.json'
const FUNNEL = 'definitions/funnels/quiz-otc.json'
const GROCERY = 'definitions/pages/grocery.json'

describe('live only moves through the gates', { timeout: 180_000 }, () => {
  let h: CcHarness<'pat' | 'vic'>
  let work: string
  let good: string
  const gitIn = (...args: string[]) =>
    spawnSync('git', ['-C', work, '-c', 'user.name=Dev', '-c', 'user.email=dev@x.test', ...args], {
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' },
    })
  /** Resets the clone to `commit`, applies `edit` to a file, commits; returns the new commit. */
  const commitOnClone = (commit: string, path: string, edit: (text: string) => string) => {
    expect(gitIn('fetch', '-q', 'origin').status).toBe(0)
    expect(gitIn('reset', '-q', '--hard', commit).status).toBe(0)
    const file = join(work, path)
    writeFileSync(file, edit(readFileSync(file, 'utf8')))
    expect(gitIn('commit', '-qam', `edit ${path}`).status).toBe(0)
    return gitIn('rev-parse', 'HEAD').stdout.trim()
  }
  const push = (ref: string) => gitIn('push', '-f', 'origin', `HEAD:${ref}`)
  const published = () => h.cc.repository.repo.resolve(PUBLISHED_REF)
  const hook = () => join(h.config.contentGitDir, 'hooks', 'pre-receive')
  const skipContact = (text: string) => {
    const doc = JSON.parse(text)
    doc.steps[4].overrides = { skippable: true }
    return `${JSON.stringify(doc, null, 2)}\n`
  }
  const healthz = () => h.call(null, 'GET', '/healthz')

  beforeAll(async () => {
    h = await startCcHarness({
      prefix: 'fw-live-guard-',
      staff: { pat: { name: 'Pat', role: 'publisher' }, vic: { name: 'Vic', role: 'viewer' } },
    })
    good = (await published())!
    work = join(h.dir, 'work')
    expect(spawnSync('git', ['clone', '-q', h.config.contentGitDir, work]).status).toBe(0)
  }, 120_000)
  afterAll(() => h?.close(), 60_000)

  it('the server writes a pre-receive hook that refuses invalid JSON and gate failures on published, with validate’s lines', async () => {
    expect(readFileSync(hook(), 'utf8')).toContain('content-check.ts')
    commitOnClone(good, SITE, () => '{ "brands": [\n')
    const json = push('published')
    expect(json.status).not.toBe(0)
    expect(json.stderr).toMatch(/remote: definitions\/site\.json:\d+:\d+ {2}\/ {2}invalid JSON/)
    expect(json.stderr).toContain('pre-receive hook declined')

    commitOnClone(good, FUNNEL, skipContact)
    const gate = push('published')
    expect(gate.status).not.toBe(0)
    expect(gate.stderr).toMatch(
      /remote: definitions\/funnels\/quiz-otc\.json:\d+:\d+ {2}\/steps\/4 {2}path zip→medicare→.*step "contact" can be skipped/,
    )
    expect(await published()).toBe(good)

    // Staff branches only need JSON that parses.
    commitOnClone(good, GROCERY, (t) => t.replace('{', '{ oops'))
    expect(push('cc/pushed').stderr).toMatch(/definitions\/pages\/grocery\.json:1:\d+ {2}\/ {2}invalid JSON/)
    commitOnClone(good, GROCERY, (t) => t.replace('"headline": "', '"headline": "Pushed '))
    expect(push('cc/pushed').status).toBe(0)
  })

  it('npm run content -- check: exit 1 with the errors on a bad commit, 0 on a good one', async () => {
    const bad = commitOnClone(good, FUNNEL, skipContact)
    const lines: string[] = []
    const out = (l: string) => lines.push(l)
    expect(await checkCommand([bad, '--git-dir', join(work, '.git')], out)).toBe(1)
    expect(lines.join('\n')).toMatch(/^definitions\/funnels\/quiz-otc\.json:\d+:\d+ {2}\/steps\/4 {2}path /m)
    lines.length = 0
    expect(await checkCommand([good, '--git-dir', join(work, '.git')], out)).toBe(0)
    expect(lines[0]).toMatch(/^ok: /)
  })

  it('with the hook removed: the bad commit is refused, not served; /healthz is degraded; the errors are logged once', async () => {
    // A branch made before, to compare with live afterwards.
    expect((await h.call('pat', 'POST', '/api/cc/branches', { title: 'Promo', name: 'promo' })).status).toBe(
      201,
    )
    await h.commitEdit('pat', 'promo', GROCERY, (d) => {
      d.headline = 'Promo headline'
    })
    const snapshot = h.opened.snapshots.current.id
    rmSync(hook())
    const bad = commitOnClone(good, SITE, () => '{ "brands": [\n')
    expect(push('published').status).toBe(0)
    expect(await published()).toBe(bad)

    const errors = vi.spyOn(process.stderr, 'write')
    await h.cc.fleet.reconcile()
    await h.cc.fleet.reconcile()
    const logged = errors.mock.calls.filter((c) => String(c[0]).includes('published commit refused'))
    errors.mockRestore()
    expect(logged).toHaveLength(1)

    expect(h.opened.snapshots.current.id).toBe(snapshot)
    expect(h.cc.live.commit).toBe(good)
    const health = (await healthz()).json
    expect(health).toMatchObject({ content: 'degraded', commit: good, serving: good })
    expect(health.refused.commit).toBe(bad)
    expect(health.refused.errors[0]).toMatch(/^definitions\/site\.json:\d+:\d+ {2}\/ {2}invalid JSON/)

    // The control center compares with the served commit, never the refused one.
    const promo = (await h.call('pat', 'GET', '/api/cc/branches/promo')).json.branch
    expect(promo.files.map((f: { path: string }) => f.path)).toEqual([GROCERY])
    expect((await h.call('pat', 'GET', '/api/cc/branches/live')).json.branch.head).toBe(good)
    expect((await h.call('pat', 'GET', '/api/cc/branches/promo/diff')).json.base).toBe(good)
    expect((await h.call('vic', 'GET', '/api/cc/live')).json.live).toMatchObject({
      content: 'degraded',
      serving: good,
    })
  })

  it('a restart on the same data comes up and serves the last good commit, still degraded', async () => {
    const restarted = await restart(h)
    try {
      const health = (await restarted.get('/healthz')).json
      expect(health).toMatchObject({ content: 'degraded', serving: good })
      expect(health.refused.commit).toBe(await published())
      expect(restarted.opened.snapshots.current.pages.get('grocery')).toBeTruthy()
      // The hook is written again at each start.
      expect(existsSync(hook())).toBe(true)
    } finally {
      await restarted.close()
    }
  })

  it('restore: a publisher moves published back to the served commit, audited; a viewer may not', async () => {
    const refused = (await published())!
    expect((await h.call('vic', 'POST', '/api/cc/live/restore', { refused })).status).toBe(403)
    expect((await h.call('pat', 'POST', '/api/cc/live/restore', { refused: good })).status).toBe(409)
    expect((await h.call('pat', 'POST', '/api/cc/live/restore', { refused: 'nope' })).status).toBe(400)
    const r = await h.call('pat', 'POST', '/api/cc/live/restore', { refused })
    expect(r.status).toBe(200)
    expect(r.json.restored).toEqual({ from: refused, to: good })
    expect(await published()).toBe(good)
    expect((await healthz()).json).toMatchObject({ content: 'ok', commit: good })
    const audit = await h.store.db.query<{ actor: string; details: { from: string; to: string } }>(
      "SELECT actor, details FROM audit_log WHERE action = 'live.restore'",
    )
    expect(audit.rows).toEqual([
      expect.objectContaining({
        actor: h.staff.pat.id,
        details: expect.objectContaining({ from: refused, to: good }),
      }),
    ])
    expect((await h.call('pat', 'POST', '/api/cc/live/restore', { refused })).status).toBe(409)
  })

  it('a funnel the gates refuse, pushed past the hook, is refused too; a publish replaces it; at a restart the latest publication serves', async () => {
    rmSync(hook())
    const gate = commitOnClone(good, FUNNEL, skipContact)
    expect(push('published').status).toBe(0)
    await h.cc.fleet.reconcile()
    const health = (await healthz()).json
    expect(health).toMatchObject({ content: 'degraded', serving: good, refused: { commit: gate } })
    expect(health.refused.errors[0]).toMatch(
      /^definitions\/funnels\/quiz-otc\.json:\d+:\d+ {2}\/steps\/4 {2}/,
    )

    // Publishing while degraded: against the served commit (no false conflict), replacing the refused one.
    const head = (await h.call('pat', 'GET', '/api/cc/branches/promo')).json.branch.head
    const pub = await h.call('pat', 'POST', '/api/cc/branches/promo/publish', { expectedHead: head })
    expect(pub.status).toBe(200)
    expect(pub.json.publication.oldCommit).toBe(good)
    const latest = pub.json.publication.newCommit
    expect(await published()).toBe(latest)
    expect((await healthz()).json).toMatchObject({ content: 'ok', commit: latest })

    // Pushed past the hook while the server is down: the restart validates it, the gates refuse it
    // once the data store is open, and the latest publication serves.
    commitOnClone(latest, FUNNEL, skipContact)
    expect(push('published').status).toBe(0)
    const restarted = await restart(h)
    try {
      await restarted.reconcile()
      expect((await restarted.get('/healthz')).json).toMatchObject({
        content: 'degraded',
        serving: latest,
        refused: { commit: await published() },
      })
    } finally {
      await restarted.close()
    }
  })
})

/** A second server on the same content repository and data store, as after a restart. */
async function restart(h: CcHarness<string>) {
  const opened = (await openContent(h.config)) as OpenedContent
  const cc = startContentServices(opened, h.store, h.config, HELD_FLEET)
  const server: Server = createApp({
    config: h.config,
    snapshots: opened.snapshots,
    store: h.store,
    content: cc,
  }).listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  const port = (server.address() as AddressInfo).port
  return {
    opened,
    reconcile: () => cc.fleet.reconcile(),
    get: (path: string) =>
      new Promise<{ status: number; json: ReturnType<typeof JSON.parse> }>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path, headers: { host: 'ccc.localhost' } }, (res) => {
          let text = ''
          res.on('data', (c) => {
            text += c
          })
          res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }))
        })
          .on('error', reject)
          .end()
      }),
    async close() {
      await new Promise((r) => server.close(r))
      await cc.close()
    },
  }
}
