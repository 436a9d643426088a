import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertEvents } from '../../store/event-store'

import { type Answer, type CcHarness, ONE_PER_ROLE, startCcHarness } from './cc-test-harness'

const GROCERY = 'definitions/pages/grocery.json'

/** The experiments part of the control center's API (issue 16) over HTTP, on PostgreSQL, with a real content repository. */
describe('control center experiments API', { timeout: 90_000 }, () => {
  type Role = 'viewer' | 'editor' | 'publisher'
  let h: CcHarness<Role>
  beforeAll(async () => {
    h = await startCcHarness({
      prefix: 'fw-cc-exp-api-',
      postgres: true,
      staff: ONE_PER_ROLE,
    })
  }, 120_000)
  afterAll(async () => {
    await h?.close()
  }, 60_000)

  const call = (
    method: string,
    path: string,
    body?: unknown,
    as?: Role,
    headers: Record<string, string> = {},
  ) => h.call(as ?? null, method, path, body, headers)
  const send = (method: string, path: string, body: string | undefined, headers: Record<string, string>) =>
    h.send(null, method, path, body, headers)
  // biome-ignore lint/suspicious/noExplicitAny: the answers' shapes are what the assertions check
  async function ok<T = Record<string, any>>(r: Answer | Promise<Answer>, status = 200): Promise<T> {
    const res = await r
    if (!res.text) throw new Error(`empty body, status ${res.status} ${JSON.stringify(res.headers)}`)
    const json = res.json
    expect(res.status, JSON.stringify(json)).toBe(status)
    return json as T
  }

  const EXP = 'definitions/experiments/grocery-headline.json'
  const fileOn = async (branch: string, path: string) =>
    (await ok(call('GET', `/api/cc/branches/${branch}/file?path=${path}`, undefined, 'editor'))) as {
      text: string
      head: string
    }
  const decide = (branch: string, body: object, as: Role = 'editor', id = 'grocery-headline') =>
    call('POST', `/api/cc/branches/${branch}/experiments/${id}/decisions`, body, as)

  /** Browsers under the experiment: `n` per variant, the first `leads` convert, each with a brand and source. */
  function seed(variant: string, n: number, leads: number, brand: string, utm: string | null, steps = 0) {
    const now = Date.now()
    const rows = []
    for (let i = 0; i < n; i++) {
      const anon = `${variant}-${brand}-${utm}-${i}-${randomUUID()}`
      const event = (minutes: number, type: 'page' | 'track', name: string, props: object, exp: boolean) => {
        const ts = new Date(now + minutes * 60_000).toISOString()
        const eventId = randomUUID()
        return {
          id: eventId,
          type,
          name,
          brand_id: brand,
          session_id: `s-${anon}`,
          anonymous_id: anon,
          user_id: null,
          paid: utm !== null,
          client_ts: ts,
          received_at: ts,
          ip: null,
          body: {
            type,
            timestamp: ts,
            sessionId: `s-${anon}`,
            anonymousId: anon,
            ...(type === 'page'
              ? { name, category: name === 'thank-you' ? 'thank-you' : 'landing' }
              : { event: name }),
            properties: {
              eventId,
              ...props,
              ...(utm ? { session: { id: `s-${anon}`, paid: true, urlParams: { utm_source: utm } } } : {}),
              page: { name: 'grocery', ...(exp ? { experiment: { id: 'grocery-headline', variant } } : {}) },
            },
          } as never,
        }
      }
      rows.push(event(1, 'page', 'grocery', {}, true))
      for (let s = 1; s <= steps; s++)
        rows.push(event(1 + s, 'track', 'formStepSubmitted', { stepNumber: s }, true))
      if (i < leads) rows.push(event(10, 'page', 'thank-you', {}, false))
    }
    return insertEvents(h.store.db, rows)
  }

  it('lists the experiments of a branch with their page, brands and status', async () => {
    expect((await call('GET', '/api/cc/experiments?branch=live')).status).toBe(401)
    expect((await ok(call('GET', '/api/cc/experiments', undefined, 'viewer'), 400)).error).toMatch(/\?branch/)
    const list = await ok(call('GET', '/api/cc/experiments?branch=live', undefined, 'viewer'))
    const row = list.experiments.find((e: { id: string }) => e.id === 'grocery-headline')
    expect(row).toMatchObject({
      page: 'grocery',
      status: 'draft',
      liveStatus: 'draft',
      variants: [
        { id: 'control', weight: 50 },
        { id: 'question', weight: 50 },
      ],
    })
    expect(row.brands).toContain('m10')
    expect(row.results).toMatchObject({ visitors: 0, leader: null, chanceToWin: null })
  })

  it('starts an experiment by a commit, publishes it, and reads results by step and dimension', async () => {
    await ok(call('POST', '/api/cc/branches', { title: 'Run grocery test' }, 'editor'), 201)
    expect((await decide('run-grocery-test', { decision: 'start' }, 'viewer')).status).toBe(403)
    expect((await ok(decide('run-grocery-test', { decision: 'ship' }), 400)).error).toMatch(/variant/)
    expect((await ok(decide('live', { decision: 'start' }), 400)).error).toMatch(/live is read-only/)
    expect(
      (await ok(decide('run-grocery-test', { decision: 'start' }, 'editor', 'nope'), 404)).error,
    ).toMatch(/no experiment "nope"/)
    const stale = (await fileOn('live', EXP)).head
    const started = await ok(decide('run-grocery-test', { decision: 'start', expectedHead: stale }), 201)
    expect(started.paths).toEqual([EXP])
    // The commit changes one line: the status.
    const diff = await ok(call('GET', '/api/cc/branches/run-grocery-test/diff', undefined, 'viewer'))
    expect(diff.files).toEqual([
      expect.objectContaining({
        path: EXP,
        changes: [{ pointer: '/status', op: 'replace', before: 'draft', after: 'running' }],
      }),
    ])
    const history = await ok(call('GET', '/api/cc/branches/run-grocery-test/history', undefined, 'viewer'))
    expect(history.commits[0].subject).toBe('Start experiment grocery-headline')
    expect((await ok(decide('run-grocery-test', { decision: 'start' }), 409)).error).toMatch(
      /already running/,
    )
    expect(
      (await ok(decide('run-grocery-test', { decision: 'pause', expectedHead: stale }), 409)).error,
    ).toMatch(/changed since you looked/)
    const list = await ok(call('GET', '/api/cc/experiments?branch=run-grocery-test', undefined, 'viewer'))
    expect(list.experiments.find((e: { id: string }) => e.id === 'grocery-headline')).toMatchObject({
      status: 'running',
      liveStatus: 'draft',
    })
    await ok(
      call(
        'POST',
        '/api/cc/branches/run-grocery-test/publish',
        { expectedHead: started.commit },
        'publisher',
      ),
    )
    // 120 per variant on m10 (organic), 40 per variant from facebook on ac; steps 1–3 for some.
    await seed('control', 120, 12, 'm10', null, 2)
    await seed('question', 120, 24, 'm10', null, 3)
    await seed('control', 40, 4, 'ac', 'facebook')
    await seed('question', 40, 8, 'ac', 'facebook', 1)
    const r = await ok(call('GET', '/api/cc/experiments/grocery-headline/results', undefined, 'viewer'))
    expect(r.experiment).toMatchObject({ id: 'grocery-headline', status: 'running', page: 'grocery' })
    expect(r.experiment.brands).toContain('m10')
    expect(r.experiment.variants[1].overrides.headline).toMatch(/\?$/)
    expect(r.variants.map((v: { users: number; leads: number }) => [v.users, v.leads])).toEqual([
      [160, 16],
      [160, 32],
    ])
    expect(r.steps).toEqual([
      { variant: 'control', step: 1, users: 120 },
      { variant: 'control', step: 2, users: 120 },
      { variant: 'control', step: 3, users: 0 },
      { variant: 'question', step: 1, users: 160 },
      { variant: 'question', step: 2, users: 120 },
      { variant: 'question', step: 3, users: 120 },
    ])
    expect(r.dimension).toBeNull()
    expect(r.segments).toBeNull()
    const byBrand = await ok(
      call('GET', '/api/cc/experiments/grocery-headline/results?dimension=brand', undefined, 'viewer'),
    )
    expect(byBrand.segments.map((s: { segment: string; users: number }) => [s.segment, s.users])).toEqual([
      ['m10', 240],
      ['ac', 80],
    ])
    const m10 = byBrand.segments[0]
    expect(m10.variants.map((v: { leads: number }) => v.leads)).toEqual([12, 24])
    expect(m10.enoughData).toBe(true)
    expect(m10.variants[1].vsControl.lift).toBeCloseTo(1, 9)
    expect(byBrand.segments[1].enoughData).toBe(false)
    expect(byBrand.segments[1].variants[1].vsControl).toBeNull()
    const bySource = await ok(
      call('GET', '/api/cc/experiments/grocery-headline/results?dimension=utm_source', undefined, 'viewer'),
    )
    expect(bySource.segments.map((s: { segment: string }) => s.segment)).toEqual(['(none)', 'facebook'])
    const byPaid = await ok(
      call('GET', '/api/cc/experiments/grocery-headline/results?dimension=paid', undefined, 'viewer'),
    )
    expect(byPaid.segments.map((s: { segment: string }) => s.segment)).toEqual(['organic', 'paid'])
    expect(
      (
        await ok(
          call('GET', '/api/cc/experiments/grocery-headline/results?dimension=os', undefined, 'viewer'),
          400,
        )
      ).error,
    ).toMatch(/dimension/)
    const live = await ok(call('GET', '/api/cc/experiments?branch=live', undefined, 'viewer'))
    expect(live.experiments.find((e: { id: string }) => e.id === 'grocery-headline').results).toMatchObject({
      visitors: 320,
      leader: 'question',
      srm: { mismatch: false },
    })
  })

  it("pauses a live experiment at once on a publisher's emergency, through a publish", async () => {
    expect(
      (await call('POST', '/api/cc/experiments/grocery-headline/emergency-pause', {}, 'editor')).status,
    ).toBe(403)
    const r = await ok(
      call(
        'POST',
        '/api/cc/experiments/grocery-headline/emergency-pause',
        { reason: 'Broken form' },
        'publisher',
      ),
    )
    expect(r.branch).toMatch(/^pause-grocery-headline-\d{14}$/)
    expect(r.publication).toMatchObject({ kind: 'emergency' })
    const live = await fileOn('live', EXP)
    expect(JSON.parse(live.text).status).toBe('paused')
    const again = await ok(
      call('POST', '/api/cc/experiments/grocery-headline/emergency-pause', {}, 'publisher'),
      409,
    )
    expect(again.error).toMatch(/not running live/)
    const audit = await ok(call('GET', `/api/cc/audit?branch=${r.branch}`, undefined, 'publisher'))
    expect(audit.entries.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['experiment.emergency-pause', 'publish']),
    )
    // A new phase began with the pause.
    const results = await ok(call('GET', '/api/cc/experiments/grocery-headline/results', undefined, 'viewer'))
    expect(results.phases.at(-1).status).toBe('paused')
  })

  it('creates a new experiment on a page, and ships a variant into the page', async () => {
    await ok(call('POST', '/api/cc/branches', { title: 'Grocery decisions' }, 'editor'), 201)
    const create = (body: object) =>
      call('POST', '/api/cc/branches/grocery-decisions/experiments', body, 'editor')
    const input = {
      id: 'grocery-cta',
      page: 'grocery',
      description: 'A shorter headline gets more quiz starts.',
      variant: 'short',
      headline: 'Grocery money in your plan?',
    }
    expect((await ok(create({ ...input, id: 'Bad Id' }), 400)).error).toMatch(/id/)
    expect((await ok(create({ ...input, page: 'no-such-page' }), 404)).error).toMatch(/no page/)
    const made = await ok(create(input), 201)
    expect(made.path).toBe('definitions/experiments/grocery-cta.json')
    expect((await ok(create(input), 409)).error).toMatch(/already exists/)
    const doc = JSON.parse((await fileOn('grocery-decisions', made.path)).text)
    expect(doc).toMatchObject({
      id: 'grocery-cta',
      status: 'draft',
      page: 'grocery',
      variants: [{ id: 'control' }, { id: 'short', overrides: { headline: 'Grocery money in your plan?' } }],
    })
    const checks = await ok(call('GET', '/api/cc/branches/grocery-decisions/checks', undefined, 'viewer'))
    expect(checks.errors).toEqual([])
    // A branch preview shows each variant of the draft experiment by `fw_variant`; live ignores it.
    const grant = await ok(
      call(
        'POST',
        '/api/cc/previews',
        { branch: 'grocery-decisions', brand: 'm10', path: '/grocery' },
        'editor',
      ),
    )
    const preview = new URL(grant.urls.m10)
    const h1 = async (path: string) =>
      /<h1[^>]*>([^<]*)<\/h1>/.exec((await send('GET', path, undefined, { host: 'm10.localhost' })).text)?.[1]
    expect(await h1(`${preview.pathname}${preview.search}&fw_variant=short`)).toBe(
      'Grocery money in your plan?',
    )
    expect(await h1(`${preview.pathname}${preview.search}`)).toBe(
      'Help with groceries from your Medicare plan',
    )
    expect(await h1('/grocery?fw_variant=short')).toBe('Help with groceries from your Medicare plan')

    expect((await ok(decide('grocery-decisions', { decision: 'ship', variant: 'nope' }), 404)).error).toMatch(
      /no variant "nope"/,
    )
    const shipped = await ok(decide('grocery-decisions', { decision: 'ship', variant: 'question' }), 201)
    expect(shipped.paths.sort()).toEqual([EXP, GROCERY])
    const diff = await ok(call('GET', '/api/cc/branches/grocery-decisions/diff', undefined, 'viewer'))
    const changes = Object.fromEntries(
      diff.files.map((f: { path: string; changes: unknown[] }) => [f.path, f.changes]),
    )
    expect(changes[GROCERY]).toEqual([
      {
        pointer: '/headline',
        op: 'replace',
        before: 'Help with groceries from your Medicare plan',
        after: 'Could your Medicare plan help pay for groceries?',
      },
    ])
    expect(changes[EXP]).toEqual([{ pointer: '/status', op: 'replace', before: 'paused', after: 'finished' }])
    const history = await ok(call('GET', '/api/cc/branches/grocery-decisions/history', undefined, 'viewer'))
    expect(history.commits[0].subject).toBe('Ship variant question of experiment grocery-headline')
    const audit = await ok(call('GET', '/api/cc/audit?branch=grocery-decisions', undefined, 'publisher'))
    expect(audit.entries.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['experiment.create', 'experiment.ship']),
    )
  })
})
