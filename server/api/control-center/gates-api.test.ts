import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertEvents } from '../../store/event-store'

import { type CcHarness, startCcHarness } from './cc-test-harness'

const FUNNEL = 'definitions/funnels/quiz-otc.json'
const ZIP = 'definitions/steps/zip.json'

/** The publish gates over HTTP: Checks and Impact, and a publish the consent gate refuses. */
describe('publish gates API', { timeout: 120_000 }, () => {
  let h: CcHarness<'pat'>
  beforeAll(async () => {
    h = await startCcHarness({ prefix: 'fw-cc-gates-', staff: { pat: { name: 'Pat', role: 'publisher' } } })
  }, 120_000)
  afterAll(() => h?.close(), 60_000)
  const call = (method: string, path: string, body?: unknown) => h.call('pat', method, path, body)

  /** Saves `path` edited on `branch` as a draft and commits it; returns the commit. */
  // biome-ignore lint/suspicious/noExplicitAny: tests reach into the documents
  async function commitEdit(branch: string, path: string, edit: (doc: any) => void): Promise<string> {
    const file = await call('GET', `/api/cc/branches/${branch}/file?path=${path}`)
    expect(file.status).toBe(200)
    const doc = JSON.parse(file.json.text)
    edit(doc)
    const put = await call('PUT', `/api/cc/branches/${branch}/drafts?path=${path}`, {
      text: `${JSON.stringify(doc, null, 2)}\n`,
    })
    expect(put.status).toBe(200)
    const head = (await call('GET', `/api/cc/branches/${branch}`)).json.branch.head
    const commit = await call('POST', `/api/cc/branches/${branch}/commits`, {
      message: `edit ${path}`,
      expectedHead: head,
      paths: [path],
    })
    expect(commit.status).toBe(201)
    return commit.json.commit
  }

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
