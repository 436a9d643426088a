/**
 * The control center's content flow against production servers (issue 14, CONTROL-CENTER §8
 * "Issue 1" steps 1 and 4–12): staff from the CLI, preview isolation on a brand host, publish on one
 * instance served by the other at once through NOTIFY (and within 35 s with its LISTEN cut), conflicts,
 * a refused invalid publish, rollback, and a scheduled publish that fires once with two instances.
 * The screens' own steps are in control-center-ui.e2e.ts.
 */
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PUBLIC_HTML_CACHE_CONTROL } from '../../engine/constants'
import { setField } from '../../engine/control-center/content/set-field'
import { pgConnection } from '../../server/store/postgres-db'
import { dropPostgresSchema, testPostgresUrl, uniquePostgresUrl } from '../../server/store/test-databases'
import { launchBrowser, routeThirdParties, THIRD_PARTY_HOSTS } from './browser'
import { call } from './cc-session'
import { httpGet } from './http'
import { PROJECT_ROOT, type ServerProcess, startServerProcess } from './server-process'
import { staffCli } from './staff-cli'

const GROCERY = 'definitions/pages/grocery.json'
const FUNNEL_PAGE = 'definitions/pages/ac-v1.json'
const OLD_HEADLINE = JSON.parse(readFileSync(join(PROJECT_ROOT, GROCERY), 'utf8')).headline as string
const db = uniquePostgresUrl('fw_cc_flow')
let a: ServerProcess
let b: ServerProcess
let browser: Browser
const staff: Record<'ed' | 'pub', { context: BrowserContext; page: Page }> = {} as never

/** `npm run staff -- …` against the servers' PostgreSQL. */
const cli = (...args: string[]) => staffCli({ DATABASE_URL: db.url }, 'x-long-password', ...args)

beforeAll(async () => {
  const remote = join(mkdtempSync(join(tmpdir(), 'fw-remote-')), 'content.git')
  expect(spawnSync('git', ['init', '--bare', '-q', remote]).status).toBe(0)
  const env = {
    DATABASE_URL: db.url,
    CONTENT_SOURCE: 'git',
    CONTENT_REMOTE: remote,
    PREVIEW_SECRET: randomBytes(32).toString('hex'),
    AD_SCRIPT_URL: 'https://insurance.mediaalpha.com/js/serve.js',
  }
  a = await startServerProcess({ ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'fw-cc-a-')) })
  ;[b, browser] = await Promise.all([
    startServerProcess({ ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'fw-cc-b-')) }),
    launchBrowser(),
  ])
  cli('add', 'ed@x.test', 'Ed', '--role', 'editor')
  cli('add', 'pub@x.test', 'Pub', '--role', 'publisher')
  for (const [who, email] of [
    ['ed', 'ed@x.test'],
    ['pub', 'pub@x.test'],
  ] as const) {
    const context = await browser.newContext()
    await routeThirdParties(context)
    const page = await context.newPage()
    await page.goto(`http://ccc.localhost:${a.port}/`)
    // A busy machine can spend the sign-in hash budget (docs/decisions/0702): wait as told, like a person.
    let r = await api(page, 'POST', '/api/_auth/session', { email, password: 'x-long-password' })
    for (let i = 0; i < 10 && r.status === 429; i++) {
      await new Promise((done) => setTimeout(done, 1_000))
      r = await api(page, 'POST', '/api/_auth/session', { email, password: 'x-long-password' })
    }
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    staff[who] = { context, page }
  }
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all([a?.stop(), b?.stop()])
  await dropPostgresSchema(db.schema)
})

/** A request from the control center's own page: its cookie and Origin, as the screens send them. */
async function api(page: Page, method: string, path: string, body?: unknown) {
  const r = await call(page, method, path, body)
  return { status: r.status, json: r.body }
}
async function ok(page: Page, method: string, path: string, body?: unknown, status = 200) {
  const r = await api(page, method, path, body)
  expect(r.status, JSON.stringify(r.json)).toBe(status)
  return r.json
}
const ed = () => staff.ed.page
const pub = () => staff.pub.page

/** Changes fields of a file on a branch through a draft and a commit; returns the new head. */
async function edit(branch: string, path: string, fields: Record<string, unknown>): Promise<string> {
  const file = await ok(ed(), 'GET', `/api/cc/branches/${branch}/file?path=${path}`)
  let text = file.text as string
  for (const [pointer, value] of Object.entries(fields)) text = setField(text, pointer, value)
  await ok(ed(), 'PUT', `/api/cc/branches/${branch}/drafts?path=${path}`, { text })
  return (
    await ok(
      ed(),
      'POST',
      `/api/cc/branches/${branch}/commits`,
      { message: 'Edit', expectedHead: file.head },
      201,
    )
  ).commit
}
const headlineOn = async (server: ServerProcess, path = '/grocery') =>
  /<h1[^>]*>([^<]*)<\/h1>/.exec((await httpGet(server.port, path, 'm10.localhost')).body)?.[1]
const liveCommit = async (server: ServerProcess) =>
  JSON.parse((await httpGet(server.port, '/healthz', 'localhost')).body).commit as string
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now()
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return Date.now() - started
}

describe('control center content flow on two instances', () => {
  it('staff made with the CLI sign in with their role; both instances serve the same published commit', async () => {
    expect((await ok(ed(), 'GET', '/api/cc/status')).user).toMatchObject({ name: 'Ed', role: 'editor' })
    expect((await ok(pub(), 'GET', '/api/cc/status')).permissions.publish).toBe(true)
    expect(await liveCommit(a)).toBe(await liveCommit(b))
  })

  it('both instances send a cached page as the same bytes and ETag: one answers 304 to the tag of the other', async () => {
    const fromA = await httpGet(a.port, '/grocery', 'm10.localhost')
    const fromB = await httpGet(b.port, '/grocery', 'm10.localhost')
    expect(fromA.status).toBe(200)
    expect(fromA.headers.etag).toMatch(/^"[\w-]+"$/)
    expect(fromB.headers.etag).toBe(fromA.headers.etag)
    expect(fromB.body).toBe(fromA.body)
    const again = await httpGet(b.port, '/grocery', 'm10.localhost', {
      'if-none-match': String(fromA.headers.etag),
    })
    expect(again.status).toBe(304)
  })

  it('previews a branch with its unsaved draft on the brand host, only with a grant, and nowhere else', async () => {
    await ok(ed(), 'POST', '/api/cc/branches', { title: 'Spring promo' }, 201)
    const file = await ok(ed(), 'GET', `/api/cc/branches/spring-promo/file?path=${GROCERY}`)
    await ok(ed(), 'PUT', `/api/cc/branches/spring-promo/drafts?path=${GROCERY}`, {
      text: setField(file.text, '/headline', 'Spring groceries, on us'),
    })
    const grant = await ok(ed(), 'POST', '/api/cc/previews', {
      branch: 'spring-promo',
      brand: 'm10',
      path: '/grocery',
    })
    const url = new URL(grant.urls.m10)
    expect(url.host).toBe(`m10.localhost:${a.port}`)

    const thirdParty: string[] = []
    const events: string[] = []
    const page = await staff.ed.context.newPage()
    page.on('request', (r) => {
      if (THIRD_PARTY_HOSTS.test(r.url())) thirdParty.push(r.url())
      if (r.url().includes('/api/event')) events.push(r.url())
    })
    const response = await page.goto(url.href)
    expect(response!.headers()['cache-control']).toBe('private, no-store')
    expect(response!.headers()['x-robots-tag']).toBe('noindex')
    expect(response!.headers()['referrer-policy']).toBe('no-referrer')
    await expect.poll(() => page.locator('h1').textContent()).toBe('Spring groceries, on us')
    const banner = page.getByTestId('preview-banner')
    await expect
      .poll(() => banner.textContent())
      .toMatch(/Preview of spring-promo @[0-9a-f]{7} — not live, with unsaved changes/)
    await page.waitForLoadState('networkidle')
    expect(thirdParty).toEqual([])
    expect(events).toEqual([])
    // A link on the same host stays in the preview.
    await page.locator('a.brand-link').click()
    await page.waitForURL((u) => u.pathname === '/')
    expect(new URL(page.url()).searchParams.get('branch')).toBe('spring-promo')
    await expect.poll(() => page.getByTestId('preview-banner').count()).toBe(1)

    // A fresh window (no grant) sees live; a guessed or forged grant is ignored and names nothing.
    const fresh = await browser.newContext()
    await routeThirdParties(fresh)
    const live = await fresh.newPage()
    await live.goto(`http://m10.localhost:${a.port}/grocery`)
    expect(await live.locator('h1').textContent()).toBe(OLD_HEADLINE)
    for (const query of [
      '?branch=spring-promo',
      `?branch=spring-promo&fw_preview=${grant.token.slice(0, -2)}xx`,
    ]) {
      const r = await httpGet(a.port, `/grocery${query}`, 'm10.localhost')
      expect(r.body).not.toContain('spring-promo')
      expect(r.body).not.toContain('Spring groceries')
      expect(r.headers['cache-control']).toBe(PUBLIC_HTML_CACHE_CONTROL)
    }
    // The grant of one branch opens no other.
    const other = await httpGet(a.port, `/grocery?branch=nope&fw_preview=${grant.token}`, 'm10.localhost')
    expect(other.body).toContain(OLD_HEADLINE)
    await fresh.close()
    await page.close()
  })

  it('an editor commits but may not publish; a publisher publishes and the other instance serves it at once', async () => {
    const head = (await ok(ed(), 'GET', `/api/cc/branches/spring-promo/file?path=${GROCERY}`)).head
    const commit = await ok(
      ed(),
      'POST',
      '/api/cc/branches/spring-promo/commits',
      { message: 'Spring headline', expectedHead: head },
      201,
    )
    const diff = await ok(ed(), 'GET', '/api/cc/branches/spring-promo/diff')
    expect(diff.files[0].changes).toEqual([
      { pointer: '/headline', op: 'replace', before: OLD_HEADLINE, after: 'Spring groceries, on us' },
    ])
    expect(
      (await ok(ed(), 'POST', '/api/cc/branches/spring-promo/publish', { expectedHead: commit.commit }, 403))
        .error,
    ).toMatch(/editor/)

    await ok(pub(), 'POST', '/api/cc/branches/spring-promo/publish', { expectedHead: commit.commit })
    expect(await headlineOn(a)).toBe('Spring groceries, on us')
    // Through NOTIFY, well before the 30 s reconcile; how fast (target 2 s) is `npm run bench -- content`.
    await within(15_000, async () => (await headlineOn(b)) === 'Spring groceries, on us')
    const history = await ok(pub(), 'GET', '/api/cc/publications')
    expect(history.publications[0]).toMatchObject({
      branch: 'spring-promo',
      actor: { name: 'Pub' },
      files: [GROCERY],
    })
    const activity = await ok(pub(), 'GET', '/api/cc/audit?branch=spring-promo')
    const rows = activity.entries.map(
      (e: { action: string; actor: { name: string } }) => `${e.action} ${e.actor.name}`,
    )
    expect(rows).toEqual(expect.arrayContaining(['commit Ed', 'publish Pub']))
  })

  it('two branches changing different fields both publish; the same field is a conflict until updated from live', async () => {
    for (const title of ['Field one', 'Field two', 'Same field'])
      await ok(ed(), 'POST', '/api/cc/branches', { title }, 201)
    const one = await edit('field-one', GROCERY, { '/subheadline': 'Changed by one' })
    const two = await edit('field-two', GROCERY, { '/title': 'Changed by two' })
    const same = await edit('same-field', GROCERY, { '/subheadline': 'Changed by same' })
    await ok(pub(), 'POST', '/api/cc/branches/field-one/publish', { expectedHead: one })
    await ok(pub(), 'POST', '/api/cc/branches/field-two/publish', { expectedHead: two })
    const html = (await httpGet(a.port, '/grocery', 'm10.localhost')).body
    expect(html).toContain('Changed by one')
    expect(html).toContain('Changed by two')

    const conflict = await ok(
      pub(),
      'POST',
      '/api/cc/branches/same-field/publish',
      { expectedHead: same },
      409,
    )
    expect(conflict.conflicts).toEqual([
      {
        path: GROCERY,
        conflicts: [
          expect.objectContaining({
            pointer: '/subheadline',
            theirs: 'Changed by one',
            mine: 'Changed by same',
          }),
        ],
      },
    ])
    const merged = await ok(ed(), 'POST', '/api/cc/branches/same-field/merge-live', {
      expectedHead: same,
      resolutions: [{ path: GROCERY, pointer: '/subheadline', take: 'theirs' }],
    })
    await ok(pub(), 'POST', '/api/cc/branches/same-field/publish', { expectedHead: merged.commit })
  })

  it('invalid content commits but never publishes: 422 with file, line and pointer', async () => {
    await ok(ed(), 'POST', '/api/cc/branches', { title: 'Broken funnel' }, 201)
    const file = await ok(ed(), 'GET', `/api/cc/branches/broken-funnel/file?path=${FUNNEL_PAGE}`)
    const text = setField(file.text, '/destination', undefined)
    const put = await ok(ed(), 'PUT', `/api/cc/branches/broken-funnel/drafts?path=${FUNNEL_PAGE}`, { text })
    expect(put.errors[0].message).toMatch(/destination/)
    const commit = await ok(
      ed(),
      'POST',
      '/api/cc/branches/broken-funnel/commits',
      { message: 'Break', expectedHead: file.head },
      201,
    )
    const refused = await ok(
      pub(),
      'POST',
      '/api/cc/branches/broken-funnel/publish',
      { expectedHead: commit.commit },
      422,
    )
    expect(refused.errors[0]).toMatchObject({
      file: FUNNEL_PAGE,
      line: expect.any(Number),
      message: expect.stringMatching(/destination/),
    })
  })

  it('rolls back to before the spring publication: the old headline returns on both instances', async () => {
    const history = await ok(pub(), 'GET', '/api/cc/publications')
    const spring = history.publications.find((p: { branch: string }) => p.branch === 'spring-promo')
    const r = await ok(pub(), 'POST', '/api/cc/rollback', {
      publication: spring.id,
      expectedLive: history.live.commit,
    })
    expect(r.publication.kind).toBe('rollback')
    expect(await headlineOn(a)).toBe(OLD_HEADLINE)
    await within(15_000, async () => (await headlineOn(b)) === OLD_HEADLINE)
    expect((await ok(pub(), 'GET', '/api/cc/publications')).publications[0]).toMatchObject({
      kind: 'rollback',
      actor: { name: 'Pub' },
    })
  })

  it('with its LISTEN connection cut, the other instance still serves a publish within 35 s', async () => {
    await ok(ed(), 'POST', '/api/cc/branches', { title: 'Quiet' }, 201)
    const head = await edit('quiet', GROCERY, { '/headline': 'Heard by reconcile' })
    const client = new pg.Client(pgConnection(testPostgresUrl()))
    await client.connect()
    try {
      const cut = await client.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [`funnelworks-listen-${b.child.pid}`],
      )
      expect(cut.rowCount).toBe(1)
    } finally {
      await client.end()
    }
    await ok(pub(), 'POST', '/api/cc/branches/quiet/publish', { expectedHead: head })
    await within(35_000, async () => (await headlineOn(b)) === 'Heard by reconcile')
  }, 60_000)

  it('a scheduled publish fires once although two instances run the scheduler', async () => {
    await ok(ed(), 'POST', '/api/cc/branches', { title: 'Timed' }, 201)
    const head = await edit('timed', GROCERY, { '/headline': 'Right on time' })
    const at = new Date(Date.now() + 2_000).toISOString()
    await ok(pub(), 'POST', '/api/cc/branches/timed/publish', { expectedHead: head, at })
    await within(
      40_000,
      async () => (await headlineOn(b)) === 'Right on time' && (await headlineOn(a)) === 'Right on time',
    )
    // Firing claimed the schedule: the branch has none left, so no later round of either scheduler
    // finds it due (two instances polling at once claim it once: content-services.test; the branch
    // reports its schedule: cc-api.test). One publication of the branch.
    expect((await ok(pub(), 'GET', '/api/cc/branches/timed')).branch.scheduledAt).toBeNull()
    const fired = (await ok(pub(), 'GET', '/api/cc/publications')).publications.filter(
      (p: { branch: string }) => p.branch === 'timed',
    )
    expect(fired).toEqual([expect.objectContaining({ kind: 'scheduled' })])
  }, 90_000)
})
