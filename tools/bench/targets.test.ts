import { describe, expect, it } from 'vitest'
import { BenchTargets } from './targets'

describe('bench targets', () => {
  it('lists each missed or unmeasured target with its bench, and only those', () => {
    const t = new BenchTargets('control-center')
    expect(t.check('commit p50', '9 ms', '≤ 150 ms', true)).toBe('met')
    expect(t.check('branches list usable', '1620 ms', '≤ 1500 ms', false)).toBe('MISSED')
    t.bench = 'validate'
    expect(t.check('first build', '—', '≤ 1000 ms', null)).toBe('NOT MEASURED')
    expect(t.failed().map((v) => v.what)).toEqual(['branches list usable', 'first build'])
    expect(t.summary()).toEqual([
      'targets: 1 of 3 met',
      '  MISSED: control-center: branches list usable: 1620 ms (target ≤ 1500 ms)',
      '  NOT MEASURED: validate: first build: — (target ≤ 1000 ms)',
    ])
  })
})
