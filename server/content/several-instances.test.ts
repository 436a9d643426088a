import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setField } from '../../engine/control-center/content/set-field'
import { createApp } from '../app'
import { ConfigError, loadConfig } from '../config'
import { PreviewGrants } from '../control-center/services/preview-grants'
import { createStaffUser, isActiveStaffUser, type StaffUser, setStaffDisabled } from '../store/auth-store'
import { openStore, type Store } from '../store/open-store'
import { dropPostgresSchema, uniquePostgresUrl } from '../store/test-databases'
import type { FleetOptions } from './content-fleet'
import {
  type ContentServices,
  type OpenedContent,
  openContent,
  startContentServices,
} from './content-services'
import { runGit } from './git/git-process'

const GROCERY = 'definitions/pages/grocery.json'

interface Instance {
  port: number
  cc: ContentServices
  store: Store
  server: Server
}

/** GET with a Host header (Node's fetch drops it): the page payload is what the page hydrates with. */
function payload(
  port: number,
  host: string,
  path: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `${host}:${port}` } }, (res) => {
      let text = ''
      res.on('data', (d) => {
        text += d
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('several instances on one PostgreSQL and one CONTENT_REMOTE', { timeout: 60_000 }, () => {
  const pg = uniquePostgresUrl('fw_fleet')
  let dir: string
  let remote: string
  const instances: Instance[] = []
  let publisher: StaffUser

  async function start(name: string, fleet: Partial<FleetOptions>): Promise<Instance> {
    const config = {
      ...loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error', DATABASE_URL: pg.url }),
      contentSource: 'git' as const,
      contentGitDir: join(dir, `${name}.git`),
      contentRemote: remote,
    }
    const store = await openStore({ databaseUrl: pg.url, dataDir: null, poolSize: 3 })
    const opened = (await openContent(config)) as OpenedContent
    const cc = startContentServices(opened, store, config, fleet)
    const server = createApp({
      config,
      snapshots: opened.snapshots,
      store,
      liveCommit: () => cc.live.commit,
    }).listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    const instance = { port: (server.address() as AddressInfo).port, cc, store, server }
    instances.push(instance)
    return instance
  }

  const headline = async (i: Instance) =>
    ((await payload(i.port, 'm10.localhost', '/grocery/_payload.json')).body.page as { headline: string })
      .headline
  const health = async (i: Instance) =>
    (await fetch(`http://127.0.0.1:${i.port}/healthz`)).json() as Promise<{ commit: string }>

  async function publishHeadline(on: Instance, branch: string, text: string): Promise<string> {
    const { branches, publisher: p } = on.cc
    await branches.createBranch(publisher, { name: branch, title: branch })
    const head = await branches.head(branch)
    const file = await on.cc.repository.repo.readText(`${head}:${GROCERY}`)
    await branches.saveDraft(publisher, branch, GROCERY, setField(file!, '/headline', text))
    const { commit } = await branches.commit(publisher, branch, { message: text, expectedHead: head })
    return (await p.publish(publisher, branch, { expectedHead: commit })).newCommit
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fw-fleet-'))
    remote = join(dir, 'remote.git')
    await runGit(remote, ['init', '--bare', '-q', remote])
  }, 60_000)
  afterAll(async () => {
    for (const i of instances) {
      i.server.closeAllConnections()
      await new Promise((r) => i.server.close(r))
      await i.cc.close()
      await i.store.close()
    }
    await dropPostgresSchema(pg.schema)
    rmSync(dir, { recursive: true, force: true })
  }, 60_000)

  it('the first instance imports and pushes; the second fetches the same published commit', async () => {
    const a = await start('a', { reconcileMs: 3_600_000 })
    const b = await start('b', { reconcileMs: 3_600_000 })
    publisher = await createStaffUser(a.store.db, {
      email: `pub-${randomUUID()}@x.test`,
      name: 'Pub',
      password: 'pw',
      role: 'publisher',
    })
    expect((await health(a)).commit).toMatch(/^[0-9a-f]{40}$/)
    expect((await health(b)).commit).toBe((await health(a)).commit)
    expect(await headline(b)).toBe('Help with groceries from your Medicare plan')
  })

  it('a publish on one instance is served by the other through NOTIFY', async () => {
    const [a, b] = instances
    const before = b.cc.fleet.notifications
    const commit = await publishHeadline(a, 'fleet-one', 'Headline published on A')
    expect(await headline(a)).toBe('Headline published on A')
    await expect.poll(() => headline(b), { timeout: 10_000, interval: 50 }).toBe('Headline published on A')
    expect((await health(b)).commit).toBe(commit)
    expect(b.cc.fleet.notifications).toBeGreaterThan(before)
  })

  it('without LISTEN, the reconcile loop catches up', async () => {
    const [a] = instances
    const c = await start('c', { listen: false, reconcileMs: 300 })
    expect(await headline(c)).toBe('Headline published on A')
    const commit = await publishHeadline(a, 'fleet-two', 'Headline seen by reconcile')
    await expect
      .poll(() => headline(c), { timeout: 10_000, interval: 100 })
      .toBe('Headline seen by reconcile')
    expect((await health(c)).commit).toBe(commit)
    expect(c.cc.fleet.notifications).toBe(0)
  })

  it('a cut LISTEN connection reconnects and hears the next publication', async () => {
    const [a, b] = instances
    b.cc.fleet.cutListenConnection()
    await new Promise((r) => setTimeout(r, 1500))
    const before = b.cc.fleet.notifications
    await publishHeadline(a, 'fleet-three', 'Headline after reconnect')
    await expect.poll(() => headline(b), { timeout: 10_000, interval: 50 }).toBe('Headline after reconnect')
    expect(b.cc.fleet.notifications).toBeGreaterThan(before)
  })

  it('a branch committed on one instance is visible on the other through the remote', async () => {
    const [a, b] = instances
    await a.cc.branches.createBranch(publisher, { name: 'shared', title: 'Shared' })
    await b.cc.repository.exclusive(() => b.cc.repository.sync())
    expect(await b.cc.branches.head('shared')).toBe(await a.cc.branches.head('shared'))
    await expect(b.cc.branches.createBranch(publisher, { name: 'shared', title: 'x' })).rejects.toMatchObject(
      { status: 409 },
    )
  })

  it('a user disabled on one instance loses their preview links on every instance within seconds', async () => {
    const [a, b] = instances
    const user = await createStaffUser(a.store.db, {
      email: `prev-${randomUUID()}@x.test`,
      name: 'Prev',
      password: 'pw',
      role: 'editor',
    })
    // One shared PREVIEW_SECRET, each instance asking its own pool (docs/decisions/0922).
    const [onA, onB] = [a, b].map(
      (i) => new PreviewGrants('s'.repeat(64), (id) => isActiveStaffUser(i.store.db, id)),
    )
    const { token } = onA.mint({ branch: 'shared', userId: user.id, drafts: false })
    expect(await onA.check(token)).toMatchObject({ userId: user.id })
    expect(await onB.check(token)).toMatchObject({ userId: user.id })
    await setStaffDisabled(b.store.db, user.email, true)
    const disabledAt = Date.now()
    await expect.poll(() => onA.check(token), { timeout: 5_000, interval: 100 }).toBeNull()
    await expect.poll(() => onB.check(token), { timeout: 5_000, interval: 100 }).toBeNull()
    expect(Date.now() - disabledAt).toBeLessThan(5_000)
    const stranger = onA.mint({ branch: 'shared', userId: randomUUID(), drafts: false }).token
    expect(await onB.check(stranger)).toBeNull()
  })
})

describe('CONTENT_REMOTE with PGlite', () => {
  it('is refused at start: PGlite is single-instance', () => {
    expect(() => loadConfig({ CONTENT_REMOTE: '/srv/content.git' })).toThrow(ConfigError)
    expect(() => loadConfig({ CONTENT_REMOTE: '/srv/content.git' })).toThrow(
      'CONTENT_REMOTE: several instances need PostgreSQL (set DATABASE_URL); PGlite is single-instance',
    )
    const ok = loadConfig({
      CONTENT_REMOTE: 'ssh://git@example.com/content.git',
      DATABASE_URL: 'postgres://x/y',
    })
    expect(ok.contentRemote).toBe('ssh://git@example.com/content.git')
  })

  it('CONTENT_SOURCE defaults to git in production and worktree in development, and refuses other values', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).contentSource).toBe('git')
    expect(loadConfig({ NODE_ENV: 'development' }).contentSource).toBe('worktree')
    expect(loadConfig({ DATA_DIR: '/tmp/fw-x' }).contentGitDir).toBe('/tmp/fw-x/content.git')
    expect(() => loadConfig({ CONTENT_SOURCE: 'svn' })).toThrow(
      'CONTENT_SOURCE: must be git or worktree, got "svn"',
    )
  })
})
