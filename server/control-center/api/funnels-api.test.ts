/**
 * GET /api/cc/funnels/:id/dropoff (issue 29, docs/decisions/0313): the drop-off of a funnel of the
 * served content, its edge checks, and the same answer on the operator endpoint the CLI uses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnalyticsEvent } from '../../../schemas/generated/analytics-event'
import { eventRow } from '../../store/event-rows'
import { insertEvents } from '../../store/event-store'
import { type CcHarness, startCcHarness } from './cc-test-harness'

/** A pageview of `step` (or a submit) of page quiz-grocery by `anon`, `minutes` after an hour ago. */
function ev(anon: string, minutes: number, step: string, submit = false, bot = false) {
  const timestamp = new Date(Date.now() - 3600_000 + minutes * 60_000).toISOString()
  const properties = {
    eventId: `${anon}-${minutes}`,
    userId: anon,
    session: { id: `s-${anon}`, paid: false, urlParams: {} },
    url: { full: 'http://m10.localhost/quiz/grocery', path: '/quiz/grocery', query: '' },
    brand: { id: 'm10', name: 'M10' },
    page: { name: 'quiz-grocery', ...(submit ? {} : { stepName: step }) },
    bot: bot ? { bot: true, kind: 'headless' } : { bot: false },
    ...(submit ? { stepName: step, stepNumber: 1, formVersion: 'quiz-grocery-1', serverSide: true } : {}),
  }
  const ids = { timestamp, sessionId: `s-${anon}`, anonymousId: anon }
  const body = submit
    ? { type: 'track', event: 'formStepSubmitted', ...ids, properties }
    : { type: 'page', name: 'quiz-grocery', category: 'funnel', ...ids, properties }
  return eventRow(body as AnalyticsEvent, new Date(), null)
}

describe('GET /api/cc/funnels/:id/dropoff', () => {
  let h: CcHarness<'viewer'>
  beforeAll(async () => {
    h = await startCcHarness({
      prefix: 'fw-dropoff-api-',
      staff: { viewer: { name: 'Vi', role: 'viewer' } },
      ops: true,
    })
    await insertEvents(h.store.db, [
      ev('v1', 0, 'zip'),
      ev('v1', 1, 'zip', true),
      ev('v1', 2, 'medicare'),
      ev('v2', 0, 'zip'),
      ev('bot', 0, 'zip', false, true),
      ev('bot', 1, 'zip', true, true),
    ])
  }, 120_000)
  afterAll(() => h?.close())

  it('answers per step for a viewer, bots left out, server-side submits counted', async () => {
    const r = await h.call('viewer', 'GET', '/api/cc/funnels/quiz-grocery/dropoff')
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const body = r.json as {
      visitors: number
      pages: string[]
      steps: {
        step: string
        reached: number
        submitted: number
        forward: Record<string, number>
        left: number
      }[]
    }
    expect(body.visitors).toBe(2)
    expect(body.pages).toContain('quiz-grocery')
    expect(body.steps.map((s) => s.step).slice(0, 2)).toEqual(['zip', 'medicare'])
    expect(body.steps[0]).toMatchObject({ reached: 2, submitted: 1, forward: { medicare: 1 }, left: 1 })
    expect(body.steps[1]).toMatchObject({ reached: 1, submitted: 0, left: 1 })
    const ops = await h.ops.send('GET', '/api/_ops/funnels/quiz-grocery/dropoff')
    expect(ops.status).toBe(200)
    expect((ops.json as { steps: unknown }).steps).toEqual(body.steps)
  })

  it('refuses bad input with a 400 naming it, an unknown funnel with a 404, strangers with 401/404', async () => {
    const ask = (q: string, id = 'quiz-grocery') =>
      h.call('viewer', 'GET', `/api/cc/funnels/${id}/dropoff${q}`)
    expect(await ask('?since=yesterday')).toMatchObject({
      status: 400,
      json: { error: expect.stringMatching(/^\?since: "yesterday" is not an ISO date/) },
    })
    expect(await ask('?until=2026-13-45')).toMatchObject({ status: 400 })
    expect(await ask('?since=2026-02-01&until=2026-01-01')).toMatchObject({
      status: 400,
      json: { error: '?since: must be before ?until' },
    })
    expect(await ask('?until=1970-01-05')).toMatchObject({
      status: 400,
      json: { error: expect.stringMatching(/range must lie within/) },
    })
    expect(await ask('?by=planet')).toMatchObject({
      status: 400,
      json: { error: expect.stringMatching(/^\?by: must be one of brand, page/) },
    })
    expect(await ask('', 'Not_A_Funnel')).toMatchObject({ status: 400 })
    expect(await ask('', 'no-such-funnel')).toMatchObject({ status: 404 })
    expect((await h.call(null, 'GET', '/api/cc/funnels/quiz-grocery/dropoff')).status).toBe(401)
    expect(
      (
        await h.send(null, 'GET', '/api/_ops/funnels/quiz-grocery/dropoff', undefined, {
          'x-ops-token': 'anything',
        })
      ).status,
    ).toBe(404)
  })

  it('splits by a dimension', async () => {
    const r = await h.call('viewer', 'GET', '/api/cc/funnels/quiz-grocery/dropoff?by=brand&since=2020-01-01')
    expect(r.status).toBe(200)
    const body = r.json as { by: string; segments: { segment: string; visitors: number }[] }
    expect(body.by).toBe('brand')
    expect(body.segments.map((s) => [s.segment, s.visitors])).toEqual([['m10', 2]])
  })
})
