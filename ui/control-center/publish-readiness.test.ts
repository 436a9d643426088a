import { describe, expect, it } from 'vitest'
import { publishReadiness } from './publish-readiness'

const checks = (over: object = {}) => ({
  commit: 'c',
  ok: true,
  errors: [],
  warnings: [],
  conflicts: [],
  impact: null,
  ...over,
})

describe('publishReadiness', () => {
  it('says "All checks pass" only with no errors, no conflicting fields and no refusal', () => {
    expect(publishReadiness(checks(), false)).toEqual({ state: 'pass', text: 'All checks pass.' })
    expect(publishReadiness(checks(), true)).toEqual({ state: 'refused' })
    expect(publishReadiness(null, false)).toEqual({ state: 'unknown' })
    const conflicted = publishReadiness(
      checks({ conflicts: [{ path: 'p.json', pointers: ['/headline'] }] }),
      false,
    )
    expect(conflicted.state).toBe('conflicts')
    expect('text' in conflicted && conflicted.text).toMatch(/p\.json \(\/headline\).*Update from live/)
    expect(publishReadiness(checks({ ok: false, errors: [{}] }), false)).toMatchObject({ state: 'problems' })
  })
})
