import { describe, expect, it } from 'vitest'
import { segmentsOf } from './experiments'

describe('experiment drill-down segments', () => {
  // 13 utm_sources of falling size (s01 largest); each with 200 users per variant.
  const rows = Array.from({ length: 13 }, (_, i) => {
    const segment = i === 12 ? 'other' : `s${String(i + 1).padStart(2, '0')}`
    const users = 1300 - i * 100
    return [
      { segment, variant: 'control', users, leads: Math.round(users * 0.05), started: 0 },
      { segment, variant: 'question', users, leads: Math.round(users * 0.06), started: 0 },
    ]
  }).flat()

  it('keeps the ten largest and folds the rest into one "other" group with its own statistics', () => {
    const s = segmentsOf(rows, ['control', 'question'], [50, 50])
    expect(s.map((x) => [x.segment, x.other])).toEqual([
      ...Array.from({ length: 10 }, (_, i) => [`s${String(i + 1).padStart(2, '0')}`, false]),
      ['other', true],
    ])
    const other = s[10]
    // s11 (300 users a variant), s12 (200) and the real source named "other" (100): 600 a variant.
    expect(other.users).toBe(1200)
    expect(other.variants.map((v: { users: number; leads: number }) => [v.users, v.leads])).toEqual([
      [600, 15 + 10 + 5],
      [600, 18 + 12 + 6],
    ])
    expect(s.reduce((n, x) => n + x.users, 0)).toBe(rows.reduce((n, r) => n + r.users, 0))
    expect(other.srm.mismatch).toBe(false)
  })

  it('has no "other" group for ten segments or fewer, and keeps a real segment named "other"', () => {
    const few = rows.filter((r) => ['s01', 'other'].includes(r.segment))
    const s = segmentsOf(few, ['control', 'question'], [50, 50])
    expect(s.map((x) => [x.segment, x.other, x.users])).toEqual([
      ['s01', false, 2600],
      ['other', false, 200],
    ])
  })
})
