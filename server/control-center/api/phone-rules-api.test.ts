import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { type CcHarness, startCcHarness } from './cc-test-harness'

const RULE = 'definitions/phone-rules/m10-google.json'

/** The phone-rules screen's route and the coverage warnings of the publish checks, over HTTP. */
describe('phone rules API', { timeout: 90_000 }, () => {
  let h: CcHarness<'ed'>
  beforeAll(async () => {
    h = await startCcHarness({ prefix: 'fw-cc-phone-', staff: { ed: { name: 'Ed', role: 'editor' } } })
  }, 120_000)
  afterAll(() => h?.close(), 60_000)
  const call = (method: string, path: string, body?: unknown) => h.call('ed', method, path, body)

  it('lists the rules with brands, pages and coverage; a shadowing draft shows; checks warn without blocking', async () => {
    const live = await call('GET', '/api/cc/branches/live/phone-rules')
    expect(live.status).toBe(200)
    const ids = live.json.rules.map((r: { id: string }) => r.id)
    expect(ids).toContain('m10-facebook')
    const fb = live.json.rules.find((r: { id: string }) => r.id === 'm10-facebook')
    expect(fb).toMatchObject({
      path: 'definitions/phone-rules/m10-facebook.json',
      state: 'unchanged',
      draft: false,
      errors: [],
    })
    expect(fb.rule.match.utmSource).toContain('facebook')
    expect(live.json.brands).toContainEqual(expect.objectContaining({ id: 'm10', public: true }))
    expect(live.json.pages.m10).toContain('home-m10')
    expect(live.json.coverage.shadowed).toEqual([])
    expect(live.json.coverage.fallThrough.map((f: { brand: string }) => f.brand)).toContain('m10')

    expect((await call('POST', '/api/cc/branches', { title: 'Phones', name: 'phones' })).status).toBe(201)
    // A rule for every page of m10 and every source m10-facebook names: more specific, so it always wins first.
    const shadow = {
      $schema: '../../schemas/phone-rule.schema.json',
      id: 'm10-google',
      brand: 'm10',
      match: { pages: live.json.pages.m10 as string[], utmSource: ['facebook', 'fb', 'ig'] },
      defaultNumber: '1234',
      placementId: 'm10-x',
      afid: '1',
    }
    const save = () =>
      call('PUT', `/api/cc/branches/phones/drafts?path=${RULE}`, {
        text: `${JSON.stringify(shadow, null, 2)}\n`,
      })
    const put = await save()
    expect(put.status).toBe(200)
    expect(put.json.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/defaultNumber'])
    const mine = await call('GET', '/api/cc/branches/phones/phone-rules')
    const row = mine.json.rules.find((r: { id: string }) => r.id === 'm10-google')
    expect(row).toMatchObject({ state: 'added', draft: true, rule: { defaultNumber: '1234' } })
    expect(row.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/defaultNumber'])
    expect(mine.json.coverage.shadowed).toEqual([
      { id: 'm10-facebook', brand: 'm10', shadowedBy: ['m10-google'] },
    ])
    // Every m10 page is now named by a rule: none falls through to the default.
    expect(mine.json.coverage.fallThrough.map((f: { brand: string }) => f.brand)).not.toContain('m10')

    // Committed with a valid number, the checks pass and warn: a warning does not block publishing.
    shadow.defaultNumber = '18885550109'
    expect((await save()).status).toBe(200)
    const head = (await call('GET', '/api/cc/branches/phones')).json.branch.head
    const commit = await call('POST', '/api/cc/branches/phones/commits', {
      message: 'rule',
      expectedHead: head,
      paths: [RULE],
    })
    expect(commit.status).toBe(201)
    const checks = await call('GET', '/api/cc/branches/phones/checks')
    expect(checks.status).toBe(200)
    expect(checks.json).toMatchObject({ ok: true, errors: [] })
    expect(checks.json.warnings).toEqual([
      {
        file: 'definitions/phone-rules/m10-facebook.json',
        line: 0,
        column: 0,
        pointer: '/match',
        message: 'phone rule "m10-facebook" can never win: wherever it matches, "m10-google" wins first',
      },
    ])
  })
})
