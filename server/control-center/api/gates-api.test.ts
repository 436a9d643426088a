import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertEvents } from '../../store/event-store'

import { type CcHarness, startCcHarness } from './cc-test-harness'

const FUNNEL = 'definitions/funnels/quiz-otc.json'
const ZIP = 'definitions/steps/zip.json'
const PAGE = 'definitions/pages/quiz-otc.json'

/** The publish gates over HTTP: Checks and Impact, and a publish the consent gate refuses. */
describe('publish gates API', { timeout: 120_000 }, () => {
  let h: CcHarness<'pat'>
  beforeAll(async () => {
    h = await startCcHarness({ prefix: 'fw-cc-gates-', staff: { pat: { name: 'Pat', role: 'publisher' } } })
  }, 120_000)
  afterAll(() => h?.close(), 60_000)
  const call = (method: string, path: string, body?: unknown) => h.call('pat', method, path, body)

  // biome-ignore lint/suspicious/noExplicitAny: tests reach into the documents
  const commitEdit = (branch: string, path: string, edit: (doc: any) => void) =>
    h.commitEdit('pat', branch, path, edit)

  it('shows the consent gate in Checks with the offending path and refuses the publish with 422', async () => {
    expect(
      (await call('POST', '/api/cc/branches', { title: 'Skip contact', name: 'skip-contact' })).status,
    ).toBe(201)
    const commit = await commitEdit('skip-contact', FUNNEL, (d) => {
      d.steps[4].overrides = { skippable: true }
    })
    const checks = await call('GET', '/api/cc/branches/skip-contact/checks')
    expect(checks.status).toBe(200)
    expect(checks.json.ok).toBe(false)
    expect(checks.json.errors).toHaveLength(1)
    const [error] = checks.json.errors
    expect(error).toMatchObject({ file: FUNNEL, pointer: '/steps/4' })
    expect(error.line).toBeGreaterThan(1)
    expect(error.message).toMatch(
      /^path zip→medicare→medicaid→name→contact\(skipped\) finishes with a phone number that no consent-bearing step collected: step "contact" can be skipped/,
    )
    expect(checks.json.impact.paths.funnels.map((f: { funnel: string }) => f.funnel)).toEqual(['quiz-otc'])
    expect(checks.json.impact.paths.funnels[0].edgesAdded).toContainEqual({
      from: 'contact',
      answer: 'skip',
      action: 'next',
      to: 'destination /thank-you',
    })

    const refused = await call('POST', '/api/cc/branches/skip-contact/publish', { expectedHead: commit })
    expect(refused.status).toBe(422)
    expect(refused.json.error).toMatch(/^publish refused: 1 error/)
    expect(refused.json.errors).toEqual([error])
    const live = await call('GET', '/api/cc/publications')
    expect(live.status).toBe(200)
    expect(JSON.stringify(live.json)).not.toContain(commit)
  })

  it('refuses a funnel page without its destination with 422 at /destination, on the line it would go', async () => {
    expect(
      (await call('POST', '/api/cc/branches', { title: 'No destination', name: 'no-destination' })).status,
    ).toBe(201)
    const commit = await commitEdit('no-destination', PAGE, (d) => {
      delete d.destination
    })
    const file = await call('GET', `/api/cc/branches/no-destination/file?path=${PAGE}`)
    expect(file.status).toBe(200)
    const closingBrace = (file.json.text as string).trimEnd().split('\n').length
    expect(closingBrace).toBeGreaterThan(1)

    const refused = await call('POST', '/api/cc/branches/no-destination/publish', { expectedHead: commit })
    expect(refused.status).toBe(422)
    expect(refused.json.errors).toEqual([
      {
        file: PAGE,
        line: closingBrace,
        column: 1,
        pointer: '/destination',
        message: 'a funnel page needs a "destination" to finish to',
      },
    ])
    const checks = await call('GET', '/api/cc/branches/no-destination/checks')
    expect(checks.json.errors).toEqual(refused.json.errors)
  })

  it("lists a shared step's impact with last week's visits, and publishes when the gates pass", async () => {
    const now = Date.now()
    const view = (i: number, brand: string, page: string, daysAgo: number) =>
      eventRowAt(page, brand, `s-${brand}-${i}`, new Date(now - daysAgo * 86_400_000))
    await insertEvents(h.store.db, [
      view(1, 'm10', 'quiz-otc', 1),
      view(1, 'm10', 'quiz-otc', 1), // the same visit's second step
      view(2, 'm10', 'quiz-otc', 2),
      view(3, 'ac', 'quiz-otc', 3),
      view(4, 'ac', 'quiz-otc', 9), // older than a week
    ])
    expect((await call('POST', '/api/cc/branches', { title: 'Zip', name: 'zip-copy' })).status).toBe(201)
    const commit = await commitEdit('zip-copy', ZIP, (d) => {
      d.subtitle = 'Plans differ by county.'
    })
    const impact = await call('GET', '/api/cc/branches/zip-copy/impact')
    expect(impact.status).toBe(200)
    expect(impact.json.ok).toBe(true)
    const [step] = impact.json.impact.steps
    expect(step).toMatchObject({ step: 'zip', changedFields: ['subtitle'], shadowed: ['test-page-quiz'] })
    expect(step.summary).toMatch(/^Shared by 14 funnels on \d+ brands$/)
    expect(step.pages).toContainEqual({
      page: 'quiz-otc',
      path: '/quiz/otc/{step?}',
      brands: ['m10', 'ac', 'emily', 'bh'],
      funnel: 'quiz-otc',
    })
    expect(impact.json.visits.days).toBe(7)
    expect(impact.json.visits.pages).toEqual(
      expect.arrayContaining([
        { page: 'quiz-otc', brand: 'ac', visits: 1 },
        { page: 'quiz-otc', brand: 'm10', visits: 2 },
      ]),
    )
    // A subtitle changes no path: every changed funnel's diff is empty.
    for (const f of impact.json.impact.paths.funnels) expect([f.edgesAdded, f.edgesRemoved]).toEqual([[], []])

    const published = await call('POST', '/api/cc/branches/zip-copy/publish', { expectedHead: commit })
    expect(published.status).toBe(200)
  })
})

function eventRowAt(page: string, brand: string, session: string, at: Date) {
  return {
    id: randomUUID(),
    type: 'page' as const,
    name: page,
    brand_id: brand,
    session_id: session,
    anonymous_id: `a-${session}`,
    user_id: null,
    paid: false,
    client_ts: at.toISOString(),
    received_at: at.toISOString(),
    ip: null,
    body: {
      type: 'page',
      timestamp: at.toISOString(),
      sessionId: session,
      anonymousId: `a-${session}`,
      name: page,
      category: 'funnel',
      properties: { eventId: randomUUID(), brand: { id: brand }, page: { name: page } },
    } as never,
  }
}

/** CONTROL-CENTER §7 risks: a gate that runs out of time fails closed; an admin may go past it, audited. */
describe('publishing past a gate that ran out of time', { timeout: 120_000 }, () => {
  let h: CcHarness<'pat' | 'ada'>
  beforeAll(async () => {
    h = await startCcHarness({
      prefix: 'fw-cc-gates-override-',
      staff: { pat: { name: 'Pat', role: 'publisher' }, ada: { name: 'Ada', role: 'admin' } },
      // No time at all: every changed funnel's gates run out at once.
      config: { gateBudgetMs: 0 },
    })
  }, 120_000)
  afterAll(() => h?.close(), 60_000)
  const publish = (who: 'pat' | 'ada', branch: string, body: object) =>
    h.call(who, 'POST', `/api/cc/branches/${branch}/publish`, body)

  it('refuses the publish, lets only an admin override it with a reason, and audits that', async () => {
    expect((await h.call('pat', 'POST', '/api/cc/branches', { title: 'Slow', name: 'slow' })).status).toBe(
      201,
    )
    const commit = await h.commitEdit('pat', 'slow', FUNNEL, (d) => {
      d.steps[0].overrides = { title: 'Your ZIP code, please' }
    })
    const checks = await h.call('pat', 'GET', '/api/cc/branches/slow/checks')
    expect(checks.json.ok).toBe(false)
    expect(checks.json.errors.length).toBeGreaterThan(0)
    for (const e of checks.json.errors) {
      expect(e).toMatchObject({ file: FUNNEL, pointer: '/steps', budget: true })
      expect(e.message).toMatch(/within its budget \(time budget\), so publishing is refused/)
    }
    expect(checks.json.errors.map((e: { message: string }) => e.message).join('\n')).toMatch(
      /an admin may publish with an override \(audited\)/,
    )

    const refused = await publish('pat', 'slow', { expectedHead: commit })
    expect(refused.status).toBe(422)
    expect(refused.json.errors.every((e: { budget?: boolean }) => e.budget === true)).toBe(true)
    const reason = 'The funnel only changed a title; checked by hand on staging.'
    const notAdmin = await publish('pat', 'slow', { expectedHead: commit, overrideBudget: { reason } })
    expect(notAdmin.status).toBe(403)
    expect(notAdmin.json.error).toMatch(/may not gates\.override/)
    const short = await publish('ada', 'slow', { expectedHead: commit, overrideBudget: { reason: 'ok' } })
    expect(short.status).toBe(400)
    expect(short.json.error).toMatch(/\/overrideBudget\/reason/)
    const scheduled = await publish('ada', 'slow', {
      expectedHead: commit,
      at: new Date(Date.now() + 3_600_000).toISOString(),
      overrideBudget: { reason },
    })
    expect(scheduled.status).toBe(400)

    const published = await publish('ada', 'slow', { expectedHead: commit, overrideBudget: { reason } })
    expect(published.status, published.text).toBe(200)
    const id = published.json.publication.id
    const record = await h.store.db.query<{ gate_report: { gates: string; overridden: string[] } }>(
      'SELECT gate_report FROM content_publications WHERE id = $1::bigint',
      [id],
    )
    expect(record.rows[0].gate_report.gates).toBe('overridden')
    expect(record.rows[0].gate_report.overridden[0]).toMatch(new RegExp(`^${FUNNEL} `))
    const audit = await h.store.db.query<{ actor: string; details: { gatesOverridden: { reason: string } } }>(
      `SELECT actor, details FROM audit_log WHERE action = 'publish' AND details->>'publication' = $1`,
      [String(id)],
    )
    expect(audit.rows).toHaveLength(1)
    expect(audit.rows[0].actor).toBe(h.staff.ada.id)
    expect(audit.rows[0].details.gatesOverridden.reason).toBe(reason)
  })

  it('never overrides a branch that does not validate', async () => {
    expect(
      (await h.call('pat', 'POST', '/api/cc/branches', { title: 'Broken', name: 'broken' })).status,
    ).toBe(201)
    const commit = await h.commitEdit('pat', 'broken', FUNNEL, (d) => {
      d.formVersion = 42
    })
    const refused = await publish('ada', 'broken', {
      expectedHead: commit,
      overrideBudget: { reason: 'Trying to push a broken funnel live.' },
    })
    expect(refused.status).toBe(422)
    expect(refused.json.errors.some((e: { pointer: string }) => e.pointer === '/formVersion')).toBe(true)
  })
})
