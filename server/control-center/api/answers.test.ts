/**
 * Every /api/cc route has an answer schema (docs/decisions/0976): read from the router itself, so a
 * new route without one fails here. The cc API tests check each answer they receive against it
 * (cc-test-harness.ts checkCcAnswer); this file checks the check.
 */
import { describe, expect, it } from 'vitest'
import { validatorFor } from '../../../engine/definitions/validators'
import { CC_ANSWER_SCHEMAS, type CcAnswerName, ccAnswerProblems } from './answers'
import { ccRouteAnswers, checkCcAnswer } from './cc-test-harness'

const SHA = 'a'.repeat(40)

describe('answer schemas of the control center API', () => {
  it('every /api/cc route declares an answer that has a schema', () => {
    const routes = ccRouteAnswers()
    expect(routes.length).toBeGreaterThan(50)
    const missing = routes.filter(
      (r) => r.answer === null || (r.answer !== 'none' && !CC_ANSWER_SCHEMAS.has(r.answer)),
    )
    expect(missing, 'routes without an answer schema').toEqual([])
  })

  it('names each answer as its schema titles it (the generated type has that name), and every schema compiles', () => {
    for (const [name, ref] of CC_ANSWER_SCHEMAS) {
      const validate = validatorFor(ref)
      expect((validate.schema as { title?: string }).title, ref).toBe(name)
    }
  })

  it('finds an answer off its schema: a missing field, a wrong type, a field the schema does not know', () => {
    const ok = { commit: SHA, merged: [], paths: ['definitions/site.json'], parent: SHA }
    expect(ccAnswerProblems('CcCommitted', 201, JSON.stringify(ok))).toEqual([])
    const { parent: _, ...missing } = ok
    expect(ccAnswerProblems('CcCommitted', 201, JSON.stringify(missing)).join()).toMatch(/parent/)
    expect(ccAnswerProblems('CcCommitted', 201, JSON.stringify({ ...ok, commit: 'HEAD' })).join()).toMatch(
      /\/commit/,
    )
    expect(ccAnswerProblems('CcCommitted', 201, JSON.stringify({ ...ok, extra: 1 })).join()).toMatch(/extra/)
    expect(ccAnswerProblems('CcCommitted', 201, 'not json').join()).toMatch(/not JSON/)
  })

  it('checks a refusal against the error schema, and a declared empty answer for a body', () => {
    const error = (body: object) => ccAnswerProblems('CcCommitted', 409, JSON.stringify(body))
    expect(error({ error: 'no', status: 404 })).toEqual([])
    expect(
      error({
        error: 'conflict',
        status: 409,
        head: SHA,
        conflicts: [{ path: 'p', conflicts: [{ pointer: '/a', base: 1, theirs: 2, mine: null }] }],
      }),
    ).toEqual([])
    expect(error({ message: 'no' })).not.toEqual([])
    const none: CcAnswerName = 'none'
    expect(ccAnswerProblems(none, 204, '')).toEqual([])
    expect(ccAnswerProblems(none, 204, '{}')).not.toEqual([])
  })

  it("matches a request to its route's answer, and throws naming the mismatch", () => {
    expect(() =>
      checkCcAnswer('GET', '/api/cc/branches/x/drafts?path=a', { status: 200, text: '{"draftsHash":"h"}' }),
    ).toThrow(
      /GET \/api\/cc\/branches\/x\/drafts answered 200 off its schema:\n {2}CcDraftList \/drafts: missing required property "drafts"/,
    )
    expect(() =>
      checkCcAnswer('GET', '/api/cc/branches/x/drafts', {
        status: 200,
        text: '{"drafts":[],"draftsHash":"h"}',
      }),
    ).not.toThrow()
    expect(() => checkCcAnswer('GET', '/healthz', { status: 200, text: 'ok' })).not.toThrow()
  })
})
