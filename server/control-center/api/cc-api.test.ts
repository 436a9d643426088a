import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setField } from '../../../engine/control-center/content/set-field'
import {
  STAND_IN_DRAFT,
  startTextgenStandIn,
  type TextgenStandIn,
} from '../../../tests/fixtures/textgen-stand-in/stand-in'
import { insertEvents } from '../../store/event-store'

import { type Answer, type CcHarness, ONE_PER_ROLE, startCcHarness } from './cc-test-harness'

const GROCERY = 'definitions/pages/grocery.json'

/** The control center's API over HTTP, on PostgreSQL, with a real content repository. */
describe('control center API', { timeout: 90_000 }, () => {
  type Role = 'viewer' | 'editor' | 'publisher'
  let h: CcHarness<Role>
  let textgen: TextgenStandIn
  beforeAll(async () => {
    textgen = await startTextgenStandIn()
    h = await startCcHarness({
      prefix: 'fw-cc-api-',
      postgres: true,
      staff: ONE_PER_ROLE,
      config: { textgenBaseUrl: textgen.url, textgenTimeoutMs: 1_500 },
    })
  }, 120_000)
  afterAll(async () => {
    await h?.close()
    await textgen?.close()
  }, 60_000)

  const call = (
    method: string,
    path: string,
    body?: unknown,
    as?: Role,
    headers: Record<string, string> = {},
  ) => h.call(as ?? null, method, path, body, headers)
  // biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are what the assertions check
  async function ok<T = Record<string, any>>(r: Answer | Promise<Answer>, status = 200): Promise<T> {
    const res = await r
    if (!res.text) throw new Error(`empty body, status ${res.status} ${JSON.stringify(res.headers)}`)
    const json = res.json
    expect(res.status, JSON.stringify(json)).toBe(status)
    return json as T
  }
  const textOn = async (branch: string) =>
    (await ok(call('GET', `/api/cc/branches/${branch}/file?path=${GROCERY}`, undefined, 'editor'))) as {
      text: string
      head: string
      draft: { text: string } | null
    }
  /** Edits one field of grocery on a branch through a draft and commits it. */
  async function edit(branch: string, pointer: string, value: unknown, as: Role = 'editor') {
    const file = await textOn(branch)
    await ok(
      call(
        'PUT',
        `/api/cc/branches/${branch}/drafts?path=${GROCERY}`,
        { text: setField(file.text, pointer, value) },
        as,
      ),
    )
    return ok(
      call(
        'POST',
        `/api/cc/branches/${branch}/commits`,
        { message: `Edit ${pointer}`, expectedHead: file.head },
        as,
      ),
      201,
    )
  }
  const live = () => h.opened.snapshots.current.pages.get('grocery')!

  it('is only for signed-in staff, on the control center host, and takes writes only from its pages', async () => {
    expect((await call('GET', '/api/cc/branches')).status).toBe(401)
    const other = await call('GET', '/api/cc/branches', undefined, 'editor', { host: 'm10.localhost' })
    expect(other.status).toBe(404)
    const noOrigin = await call('POST', '/api/cc/branches', { title: 'x' }, 'editor', { origin: '' })
    expect(noOrigin.status).toBe(403)
    expect(noOrigin.json.error).toMatch(/Origin/)
    const foreign = await call('POST', '/api/cc/branches', { title: 'x' }, 'editor', {
      origin: 'http://evil.test',
    })
    expect(foreign.status).toBe(403)
    const form = await h.send('editor', 'POST', '/api/cc/branches', '{"title":"x"}', {
      'content-type': 'text/plain',
    })
    expect(form.status).toBe(415)
    const status = await ok(call('GET', '/api/cc/status', undefined, 'editor'))
    expect(status.user.role).toBe('editor')
    expect(status.permissions).toMatchObject({ 'branch.create': true, publish: false })
    expect(status.live.commit).toMatch(/^[0-9a-f]{40}$/)
    expect((await call('POST', '/api/cc/branches', { title: 'Nope' }, 'viewer')).status).toBe(403)
  })

  it('refuses bad input with a 400 naming the field, and unknown branches with 404', async () => {
    expect((await ok(call('POST', '/api/cc/branches', { title: '' }, 'editor'), 400)).error).toMatch(
      /^\/title/,
    )
    expect(
      (await ok(call('POST', '/api/cc/branches', { title: 'x', name: 'Bad Name' }, 'editor'), 400)).error,
    ).toMatch(/\/name/)
    expect(
      (await ok(call('POST', '/api/cc/branches', { title: 'x', extra: 1 }, 'editor'), 400)).error,
    ).toMatch(/extra/)
    expect((await ok(call('GET', '/api/cc/branches/nope', undefined, 'editor'), 404)).error).toMatch(
      /unknown branch "nope"/,
    )
    expect(
      (await ok(call('GET', '/api/cc/branches/live/file?path=../etc/passwd', undefined, 'editor'), 400))
        .error,
    ).toMatch(/path/)
    expect((await ok(call('GET', '/api/cc/branches/live/file', undefined, 'editor'), 400)).error).toBe(
      '?path: is required',
    )
    const r = await ok(
      call('PUT', `/api/cc/branches/live/drafts?path=${GROCERY}`, { text: '{}' }, 'editor'),
      400,
    )
    expect(r.error).toMatch(/live is read-only/)
  })

  it('walks a branch from draft to commit to publish, with the diff, history and audit on the way', async () => {
    const created = await ok(call('POST', '/api/cc/branches', { title: 'Spring promo' }, 'editor'), 201)
    expect(created.branch).toMatchObject({
      name: 'spring-promo',
      title: 'Spring promo',
      status: 'open',
      files: [],
    })
    expect(
      (await ok(call('POST', '/api/cc/branches', { title: 'Spring promo' }, 'editor'), 409)).error,
    ).toMatch(/exists/)

    const file = await textOn('spring-promo')
    const old = live().headline
    const draft = await ok(
      call(
        'PUT',
        `/api/cc/branches/spring-promo/drafts?path=${GROCERY}`,
        { text: setField(file.text, '/headline', 'Groceries, paid') },
        'editor',
      ),
    )
    expect(draft).toMatchObject({ errors: [], problems: 0 })
    expect(draft.draftsHash).toMatch(/\w+/)
    const files = await ok(call('GET', '/api/cc/branches/spring-promo/files?kind=page', undefined, 'editor'))
    const row = files.files.find((f: { path: string }) => f.path === GROCERY)
    expect(row).toMatchObject({ kind: 'page', id: 'grocery', draft: true, state: 'modified' })
    expect(row.page).toMatchObject({ key: 'grocery', headline: 'Groceries, paid', template: 'landing' })
    expect((await textOn('spring-promo')).draft?.text).toContain('Groceries, paid')

    const commit = await ok(
      call(
        'POST',
        '/api/cc/branches/spring-promo/commits',
        { message: 'New headline', expectedHead: file.head },
        'editor',
      ),
      201,
    )
    expect(commit.paths).toEqual([GROCERY])
    const diff = await ok(call('GET', '/api/cc/branches/spring-promo/diff', undefined, 'viewer'))
    expect(diff.files).toEqual([
      expect.objectContaining({
        path: GROCERY,
        status: 'modified',
        changes: [{ pointer: '/headline', op: 'replace', before: old, after: 'Groceries, paid' }],
      }),
    ])
    const history = await ok(call('GET', '/api/cc/branches/spring-promo/history', undefined, 'viewer'))
    expect(history.commits[0]).toMatchObject({
      sha: commit.commit,
      subject: 'New headline',
      author: { name: 'Editor' },
    })
    expect(history.commits[0].auditId).toMatch(/^\d+$/)
    expect(await ok(call('GET', '/api/cc/branches/spring-promo/checks', undefined, 'viewer'))).toMatchObject({
      ok: true,
      errors: [],
    })

    const refused = await ok(
      call('POST', '/api/cc/branches/spring-promo/publish', { expectedHead: commit.commit }, 'editor'),
      403,
    )
    expect(refused.error).toMatch(/editor/)
    expect(live().headline).toBe(old)
    const stale = await ok(
      call('POST', '/api/cc/branches/spring-promo/publish', { expectedHead: file.head }, 'publisher'),
      409,
    )
    expect(stale.error).toMatch(/changed since you reviewed it/)
    const published = await ok(
      call('POST', '/api/cc/branches/spring-promo/publish', { expectedHead: commit.commit }, 'publisher'),
    )
    expect(published.publication).toMatchObject({
      newCommit: commit.commit,
      kind: 'publish',
      branch: 'spring-promo',
    })
    expect(live().headline).toBe('Groceries, paid')

    const pubs = await ok(call('GET', '/api/cc/publications', undefined, 'viewer'))
    expect(pubs.publications[0]).toMatchObject({
      id: published.publication.id,
      files: [GROCERY],
      actor: { name: 'Publisher' },
    })
    const activity = await ok(call('GET', '/api/cc/audit?branch=spring-promo', undefined, 'publisher'))
    const actions = activity.entries.map(
      (e: { action: string; actor: { name: string } }) => `${e.action} by ${e.actor.name}`,
    )
    expect(actions).toEqual(
      expect.arrayContaining(['commit by Editor', 'publish by Publisher', 'branch.create by Editor']),
    )
  })

  it('refuses to publish the second of two branches that changed the same field until it is updated from live', async () => {
    for (const title of ['Same A', 'Same B', 'Other C'])
      await ok(call('POST', '/api/cc/branches', { title }, 'editor'), 201)
    const a = await edit('same-a', '/headline', 'Headline A')
    const b = await edit('same-b', '/headline', 'Headline B')
    const c = await edit('other-c', '/subheadline', 'Subheadline C')
    const list = await ok(call('GET', '/api/cc/branches', undefined, 'viewer'))
    const overlaps = list.branches.find((x: { name: string }) => x.name === 'same-a').overlaps
    expect(overlaps).toEqual([{ path: GROCERY, branches: expect.arrayContaining(['same-b', 'other-c']) }])

    await ok(call('POST', '/api/cc/branches/same-a/publish', { expectedHead: a.commit }, 'publisher'))
    const conflict = await ok(
      call('POST', '/api/cc/branches/same-b/publish', { expectedHead: b.commit }, 'publisher'),
      409,
    )
    expect(conflict.error).toMatch(/conflict/)
    expect(conflict.conflicts).toEqual([
      {
        path: GROCERY,
        conflicts: [
          { pointer: '/headline', base: 'Groceries, paid', theirs: 'Headline A', mine: 'Headline B' },
        ],
      },
    ])
    const checks = await ok(call('GET', '/api/cc/branches/same-b/checks', undefined, 'viewer'))
    expect(checks.conflicts).toEqual([{ path: GROCERY, pointers: ['/headline'] }])
    // Different fields of the same file merge without a question.
    await ok(call('POST', '/api/cc/branches/other-c/publish', { expectedHead: c.commit }, 'publisher'))
    expect(live()).toMatchObject({ headline: 'Headline A', subheadline: 'Subheadline C' })

    expect(
      (
        await ok(
          call('POST', '/api/cc/branches/same-b/merge-live', { expectedHead: b.commit }, 'editor'),
          409,
        )
      ).conflicts,
    ).toHaveLength(1)
    const merged = await ok(
      call(
        'POST',
        '/api/cc/branches/same-b/merge-live',
        { expectedHead: b.commit, resolutions: [{ path: GROCERY, pointer: '/headline', take: 'mine' }] },
        'editor',
      ),
    )
    await ok(call('POST', '/api/cc/branches/same-b/publish', { expectedHead: merged.commit }, 'publisher'))
    expect(live()).toMatchObject({ headline: 'Headline B', subheadline: 'Subheadline C' })
  })

  it('lets invalid content be committed but refuses to publish it with every error at its pointer', async () => {
    await ok(call('POST', '/api/cc/branches', { title: 'Broken' }, 'editor'), 201)
    const file = await textOn('broken')
    const put = await ok(
      call(
        'PUT',
        `/api/cc/branches/broken/drafts?path=${GROCERY}`,
        { text: setField(file.text, '/headline', 42) },
        'editor',
      ),
    )
    expect(put.errors).toEqual([
      expect.objectContaining({ file: GROCERY, pointer: '/headline', line: expect.any(Number) }),
    ])
    const commit = await ok(
      call(
        'POST',
        '/api/cc/branches/broken/commits',
        { message: 'Break', expectedHead: file.head },
        'editor',
      ),
      201,
    )
    expect((await ok(call('GET', '/api/cc/branches/broken/checks', undefined, 'viewer'))).ok).toBe(false)
    const refused = await ok(
      call('POST', '/api/cc/branches/broken/publish', { expectedHead: commit.commit }, 'publisher'),
      422,
    )
    expect(refused.error).toMatch(/publish refused: 1 error/)
    expect(refused.errors).toEqual([expect.objectContaining({ file: GROCERY, pointer: '/headline' })])
    expect(live().headline).toBe('Headline B')
  })

  it('rolls back to before a publication with a new forward commit', async () => {
    const pubs = await ok(call('GET', '/api/cc/publications', undefined, 'viewer'))
    const last = pubs.publications[0]
    const r = await ok(
      call('POST', '/api/cc/rollback', { publication: last.id, expectedLive: pubs.live.commit }, 'publisher'),
    )
    expect(r.publication).toMatchObject({ kind: 'rollback', oldCommit: pubs.live.commit })
    expect(live().headline).toBe('Headline A')
    expect(
      (
        await ok(
          call(
            'POST',
            '/api/cc/rollback',
            { publication: last.id, expectedLive: pubs.live.commit },
            'publisher',
          ),
          409,
        )
      ).error,
    ).toMatch(/live changed/)
  })

  it('lists the audit log newest first by when each row was written, and pages it with ?before', async () => {
    const line = (e: { action: string; target: string | null }) => `${e.action} ${e.target ?? '-'}`
    await ok(call('POST', '/api/cc/branches', { title: 'Audit order' }, 'editor'), 201)
    const c = await edit('audit-order', '/subheadline', 'In time order')
    await ok(call('POST', '/api/cc/branches/audit-order/publish', { expectedHead: c.commit }, 'publisher'))
    const pubs = await ok(call('GET', '/api/cc/publications', undefined, 'viewer'))
    await ok(
      call(
        'POST',
        '/api/cc/rollback',
        { publication: pubs.publications[0].id, expectedLive: pubs.live.commit },
        'publisher',
      ),
    )
    const top = await ok(call('GET', '/api/cc/audit?limit=3', undefined, 'publisher'))
    expect(top.entries.map(line)).toEqual([
      'rollback refs/heads/published',
      'publish audit-order',
      'commit audit-order',
    ])
    // What the Activity screen's sentences need: the files that went live, names not ids.
    expect(top.entries[1].details.paths).toEqual([GROCERY])
    expect(top.entries[0].details.paths).toEqual([GROCERY])
    expect(top.entries[1].actor.name).toBe('Publisher')

    // A publish reserves its audit id (its merge commit names it) before its gates run; a preview
    // granted meanwhile is written first, so it is the older row although its id is the newer.
    await ok(call('POST', '/api/cc/branches', { title: 'Audit late' }, 'editor'), 201)
    const d = await edit('audit-late', '/subheadline', 'Written late')
    const source = h.cc.publisher.live.source
    const build = source.build.bind(source)
    let grant: Promise<Answer> | null = null
    source.build = async (...args) => {
      grant ??= call('POST', '/api/cc/previews', { branch: 'audit-late' }, 'editor')
      await ok(grant)
      return build(...args)
    }
    try {
      await ok(call('POST', '/api/cc/branches/audit-late/publish', { expectedHead: d.commit }, 'publisher'))
    } finally {
      delete (source as Partial<typeof source>).build
    }
    const newest = await ok(call('GET', '/api/cc/audit?limit=6', undefined, 'publisher'))
    expect(newest.entries.slice(0, 2).map(line)).toEqual(['publish audit-late', 'preview.grant audit-late'])
    expect(Number(newest.entries[0].id)).toBeLessThan(Number(newest.entries[1].id))
    const paged: string[] = []
    for (let before = ''; paged.length < 6; ) {
      const page = await ok(call('GET', `/api/cc/audit?limit=1${before}`, undefined, 'publisher'))
      paged.push(page.entries[0].id)
      before = `&before=${page.entries[0].id}`
    }
    expect(paged).toEqual(newest.entries.map((e: { id: string }) => e.id))
    expect(
      (await ok(call('GET', '/api/cc/audit?before=999999999', undefined, 'publisher'), 400)).error,
    ).toMatch(/before/)
  })

  it('reverts only one publication on a new branch, and refuses with the fields a later one changed again', async () => {
    const before = live().subheadline
    const publish = async (title: string, pointer: string, value: string) => {
      const { branch } = await ok(call('POST', '/api/cc/branches', { title }, 'editor'), 201)
      const c = await edit(branch.name, pointer, value)
      return (
        await ok(
          call('POST', `/api/cc/branches/${branch.name}/publish`, { expectedHead: c.commit }, 'publisher'),
        )
      ).publication.id as string
    }
    const one = await publish('Revert one', '/subheadline', 'Sub from one')
    await publish('Revert two', '/title', 'Title from two')
    const shown = await ok(call('GET', `/api/cc/publications/${one}/diff`, undefined, 'viewer'))
    expect(shown.files).toEqual([
      expect.objectContaining({
        path: GROCERY,
        changes: [{ pointer: '/subheadline', op: 'replace', before, after: 'Sub from one' }],
      }),
    ])
    const made = await ok(call('POST', `/api/cc/publications/${one}/revert`, undefined, 'editor'), 201)
    expect(made.branch).toMatchObject({ name: `revert-${one}`, paths: [GROCERY] })
    // The branch's diff is that publication's, inverted; nothing of the later one.
    const diff = await ok(call('GET', `/api/cc/branches/revert-${one}/diff`, undefined, 'viewer'))
    expect(diff.files).toEqual([
      expect.objectContaining({
        path: GROCERY,
        changes: [{ pointer: '/subheadline', op: 'replace', before: 'Sub from one', after: before }],
      }),
    ])
    await ok(
      call('POST', `/api/cc/branches/revert-${one}/publish`, { expectedHead: made.branch.head }, 'publisher'),
    )
    expect(live()).toMatchObject({ subheadline: before, title: 'Title from two' })
    expect(
      (await ok(call('POST', `/api/cc/publications/${one}/revert`, undefined, 'editor'), 409)).error,
    ).toMatch(/exists|nothing to revert/)

    // A later publication changed the same field again: a refusal naming it, and no branch.
    const pubs = await ok(call('GET', '/api/cc/publications', undefined, 'viewer'))
    const two = pubs.publications.find((p: { branch: string }) => p.branch === 'revert-two').id
    await publish('Revert three', '/title', 'Title from three')
    const refused = await ok(call('POST', `/api/cc/publications/${two}/revert`, undefined, 'editor'), 409)
    expect(refused.conflicts).toEqual([
      {
        path: GROCERY,
        conflicts: [expect.objectContaining({ pointer: '/title', theirs: 'Title from three' })],
      },
    ])
    const branches = await ok(call('GET', '/api/cc/branches', undefined, 'viewer'))
    expect(branches.branches.map((b: { name: string }) => b.name)).not.toContain(`revert-${two}`)
    expect((await ok(call('GET', '/api/cc/publications/x/diff', undefined, 'viewer'), 400)).error).toMatch(
      /:id/,
    )
    expect(
      (await ok(call('POST', '/api/cc/publications/999999/revert', undefined, 'editor'), 404)).error,
    ).toMatch(/unknown publication/)
  })

  it('mints preview links for the brand hosts, audited', async () => {
    const r = await ok(
      call('POST', '/api/cc/previews', { branch: 'broken', brand: 'm10', path: '/grocery' }, 'viewer'),
    )
    expect(Object.keys(r.urls)).toEqual(['m10'])
    const url = new URL(r.urls.m10)
    expect(url.host).toBe('m10.localhost')
    expect(url.pathname).toBe('/grocery')
    expect(url.searchParams.get('branch')).toBe('broken')
    expect(h.cc.previews.verify(url.searchParams.get('fw_preview'))).toMatchObject({
      branch: 'broken',
      drafts: true,
    })
    expect(
      (await ok(call('POST', '/api/cc/previews', { branch: 'broken', brand: 'nope' }, 'viewer'), 400)).error,
    ).toMatch(/brand/)
    const all = await ok(call('POST', '/api/cc/previews', { branch: 'live' }, 'viewer'))
    expect(Object.keys(all.urls)).not.toContain('ccc')
    expect(Object.keys(all.urls).length).toBeGreaterThan(5)
  })

  it('schedules a publish that fires once, and archives branches', async () => {
    await ok(call('POST', '/api/cc/branches', { title: 'Later' }, 'editor'), 201)
    const c = await edit('later', '/subheadline', 'Scheduled words')
    const at = new Date(Date.now() + 120_000).toISOString()
    expect(
      (await ok(call('POST', '/api/cc/branches/later/publish', { expectedHead: c.commit, at }, 'publisher')))
        .scheduled,
    ).toEqual({ at, commit: c.commit })
    expect((await ok(call('GET', '/api/cc/branches/later', undefined, 'viewer'))).branch.scheduledAt).toBe(at)
    expect(await h.cc.publisher.runDueSchedules(new Date())).toEqual([])
    const fired = await Promise.all([
      h.cc.publisher.runDueSchedules(new Date(Date.now() + 180_000)),
      h.cc.publisher.runDueSchedules(new Date(Date.now() + 180_000)),
    ])
    expect(fired.flat()).toHaveLength(1)
    expect(live().subheadline).toBe('Scheduled words')

    expect((await ok(call('DELETE', '/api/cc/branches/later', undefined, 'viewer'), 403)).error).toMatch(
      /viewer/,
    )
    const archived = await ok(call('DELETE', '/api/cc/branches/later', undefined, 'editor'))
    expect(archived.branch.status).toBe('archived')
    const list = await ok(call('GET', '/api/cc/branches', undefined, 'viewer'))
    expect(list.branches.map((b: { name: string }) => b.name)).not.toContain('later')
  })

  it('shows experiment results per phase with their statistics', async () => {
    expect(
      (await ok(call('GET', '/api/cc/experiments/nope/results', undefined, 'viewer'), 404)).error,
    ).toMatch(/unknown experiment/)
    await ok(call('POST', '/api/cc/branches', { title: 'Start experiment' }, 'editor'), 201)
    const path = 'definitions/experiments/grocery-headline.json'
    const file = await ok(
      call('GET', `/api/cc/branches/start-experiment/file?path=${path}`, undefined, 'editor'),
    )
    await ok(
      call(
        'PUT',
        `/api/cc/branches/start-experiment/drafts?path=${path}`,
        { text: setField(file.text, '/status', 'running') },
        'editor',
      ),
    )
    const c = await ok(
      call(
        'POST',
        '/api/cc/branches/start-experiment/commits',
        { message: 'Start', expectedHead: file.head },
        'editor',
      ),
      201,
    )
    await ok(
      call('POST', '/api/cc/branches/start-experiment/publish', { expectedHead: c.commit }, 'publisher'),
    )
    // 150 browsers per variant after the start: control converts 20, question 40.
    const now = Date.now()
    const rows = []
    for (const [variant, leads] of [
      ['control', 20],
      ['question', 40],
    ] as const)
      for (let i = 0; i < 150; i++) {
        const anon = `${variant}-${i}`
        const event = (minutes: number, page: string, category: string, experiment: boolean) => {
          const ts = new Date(now + minutes * 60_000).toISOString()
          const eventId = randomUUID()
          return {
            id: eventId,
            type: 'page' as const,
            name: page,
            brand_id: 'm10',
            session_id: `s-${anon}`,
            anonymous_id: anon,
            user_id: null,
            paid: false,
            client_ts: ts,
            received_at: ts,
            ip: null,
            body: {
              type: 'page',
              timestamp: ts,
              sessionId: `s-${anon}`,
              anonymousId: anon,
              name: page,
              category,
              properties: {
                eventId,
                page: {
                  name: page,
                  ...(experiment ? { experiment: { id: 'grocery-headline', variant } } : {}),
                },
              },
            } as never,
          }
        }
        rows.push(event(1, 'grocery', 'landing', true))
        if (i < leads) rows.push(event(2, 'thank-you', 'thank-you', false))
      }
    await insertEvents(h.store.db, rows)
    const r = await ok(call('GET', '/api/cc/experiments/grocery-headline/results', undefined, 'viewer'))
    expect(r.phases.at(-1)).toMatchObject({ status: 'running', weights: { control: 50, question: 50 } })
    expect(
      r.variants.map((v: { id: string; users: number; leads: number }) => [v.id, v.users, v.leads]),
    ).toEqual([
      ['control', 150, 20],
      ['question', 150, 40],
    ])
    expect(r.srm.mismatch).toBe(false)
    expect(r.enoughData).toBe(true)
    expect(r.variants[1].vsControl.lift).toBeCloseTo(1, 9)
    expect(r.variants[1].vsControl.chanceToWin).toBeGreaterThan(0.95)
    expect(r.variants[1].chanceToBeBest).toBeGreaterThan(0.95)
    expect(r.daily).toHaveLength(2)
    expect(
      (
        await ok(
          call('GET', '/api/cc/experiments/grocery-headline/results?phase=9', undefined, 'viewer'),
          400,
        )
      ).error,
    ).toMatch(/phase/)
  })

  describe('content-factory runs against the text-generation stand-in', () => {
    const settled = async (id: string) => {
      for (let i = 0; i < 200; i++) {
        const { run } = await ok(call('GET', `/api/cc/runs/${id}`, undefined, 'viewer'))
        if (['succeeded', 'failed', 'cancelled'].includes(run.status)) return run
        await new Promise((r) => setTimeout(r, 50))
      }
      throw new Error(`run ${id} never settled`)
    }
    const start = async (topic: string) =>
      (
        await ok(
          call(
            'POST',
            '/api/cc/branches/factory/runs',
            { author: 'mpa-agents', brief: { topic, carrier: 'Humana' } },
            'editor',
          ),
          201,
        )
      ).run

    it('streams a run to a validated draft and commits it as an article on the branch', async () => {
      textgen.mode = 'ok'
      await ok(call('POST', '/api/cc/branches', { title: 'Factory' }, 'editor'), 201)
      expect(
        (
          await ok(
            call('POST', '/api/cc/branches/factory/runs', { author: 'mpa-agents', brief: {} }, 'editor'),
            400,
          )
        ).error,
      ).toMatch(/topic/)
      expect(
        (
          await ok(
            call(
              'POST',
              '/api/cc/branches/factory/runs',
              { author: 'nobody', brief: { topic: 'Dental' } },
              'editor',
            ),
            400,
          )
        ).error,
      ).toMatch(/no author "nobody"/)
      expect(
        (
          await ok(
            call(
              'POST',
              '/api/cc/branches/factory/runs',
              { author: 'mpa-agents', brief: { topic: 'Dental' } },
              'viewer',
            ),
            403,
          )
        ).error,
      ).toMatch(/viewer/)
      const queued = await start('Dental coverage')
      expect(queued.messages[0].content).toContain('MyPlanAdvocate Licensed Agent Team')
      expect(queued.messages[1].content).toContain('Topic: Dental coverage')
      const run = await settled(queued.id)
      expect(run).toMatchObject({
        status: 'succeeded',
        attempt: 1,
        draft: STAND_IN_DRAFT,
        validation: { errors: [], warnings: [] },
        promptTokens: 321,
      })
      expect(run.output).toBe(JSON.stringify(STAND_IN_DRAFT))
      const made = await ok(call('POST', `/api/cc/runs/${run.id}/article`, undefined, 'editor'))
      expect(made.path).toBe('definitions/articles/humana-dental-coverage.json')
      const file = await ok(
        call('GET', `/api/cc/branches/factory/file?path=${made.path}`, undefined, 'viewer'),
      )
      expect(JSON.parse(file.text)).toMatchObject({
        id: 'humana-dental-coverage',
        author: 'mpa-agents',
        carrier: 'Humana',
        body: STAND_IN_DRAFT.body,
      })
      expect(file.errors).toEqual([])
      expect(
        (await ok(call('POST', `/api/cc/runs/${run.id}/article`, undefined, 'editor'), 409)).error,
      ).toMatch(/already article/)
      // A second draft with the same slug is refused by validation, after one repair.
      const again = await settled((await start('Dental again')).id)
      expect(again).toMatchObject({ status: 'failed', attempt: 2 })
      expect(again.error).toMatch(/already exists/)
      const listed = await ok(call('GET', '/api/cc/branches/factory/runs', undefined, 'viewer'))
      expect(listed).toMatchObject({ configured: true, model: 'gpt-4o-mini' })
      expect(listed.runs.map((r: { id: string }) => r.id)).toEqual([again.id, run.id])
    })

    it('repairs an unusable answer once, and ends errors, hangs and cancels with a reason', async () => {
      await ok(call('POST', '/api/cc/branches', { title: 'Factory two' }, 'editor'), 201)
      const run2 = async (mode: typeof textgen.mode, topic: string) => {
        textgen.mode = mode
        return (
          await ok(
            call(
              'POST',
              '/api/cc/branches/factory-two/runs',
              { author: 'mpa-agents', brief: { topic } },
              'editor',
            ),
            201,
          )
        ).run
      }
      const repaired = await settled((await run2('schema-violation', 'Repair me')).id)
      expect(repaired).toMatchObject({ status: 'succeeded', attempt: 2 })
      expect(repaired.messages.at(-1).content).toContain('"body" must be a non-empty array of lines')
      const down = await settled((await run2('http-500', 'Down')).id)
      expect(down).toMatchObject({
        status: 'failed',
        error: 'the provider answered 500: the model is overloaded',
      })
      const hung = await settled((await run2('hang', 'Hang')).id)
      expect(hung).toMatchObject({ status: 'failed', error: 'no answer within 2 s' })
      const slow = await run2('slow', 'Slow')
      // Cancelled while the model is answering …
      for (let i = 0; i < 200; i++) {
        const { run } = await ok(call('GET', `/api/cc/runs/${slow.id}`, undefined, 'viewer'))
        if (run.status === 'running') break
        await new Promise((r) => setTimeout(r, 20))
      }
      const cancelled = await ok(call('POST', `/api/cc/runs/${slow.id}/cancel`, undefined, 'editor'))
      expect(cancelled.run).toMatchObject({ status: 'cancelled', error: 'cancelled by staff' })
      // … and one cancelled the moment it is created (queued, or being claimed): both stay cancelled.
      const queued = (
        await ok(
          call(
            'POST',
            '/api/cc/branches/factory-two/runs',
            { author: 'mpa-agents', brief: { topic: 'Queued' } },
            'editor',
          ),
          201,
        )
      ).run
      const cancelledQueued = await ok(call('POST', `/api/cc/runs/${queued.id}/cancel`, undefined, 'editor'))
      expect(cancelledQueued.run).toMatchObject({ status: 'cancelled' })
      await new Promise((r) => setTimeout(r, 300))
      expect((await settled(slow.id)).status).toBe('cancelled')
      expect((await settled(queued.id)).status).toBe('cancelled')
      // Each run's finish is recorded exactly once, with how it ended.
      const audit = await ok(call('GET', '/api/cc/audit?branch=factory-two', undefined, 'publisher'))
      const finishes = audit.entries
        .filter((e: { action: string }) => e.action === 'run.finish')
        .map((e: { details: { run: string; status: string } }) => `${e.details.run}:${e.details.status}`)
        .sort()
      expect(finishes).toEqual(
        [
          `${repaired.id}:succeeded`,
          `${down.id}:failed`,
          `${hung.id}:failed`,
          `${slow.id}:cancelled`,
          `${queued.id}:cancelled`,
        ].sort(),
      )
    })
  })
})
