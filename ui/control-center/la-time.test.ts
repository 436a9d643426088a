import { describe, expect, it } from 'vitest'
import { isoToLaLocal, laLocalToIso } from './la-time'
import { slugOf } from './NewBranchDialog'

describe('Los Angeles time for scheduled publishing', () => {
  it('reads a wall-clock time in LA, winter and summer', () => {
    expect(laLocalToIso('2026-11-24T09:30')).toBe('2026-11-24T17:30:00.000Z')
    expect(laLocalToIso('2026-07-01T09:30')).toBe('2026-07-01T16:30:00.000Z')
    expect(laLocalToIso('not a time')).toBeNull()
  })
  it('round-trips', () => {
    const t = Date.parse('2026-03-20T01:05:00Z')
    expect(laLocalToIso(isoToLaLocal(t))).toBe('2026-03-20T01:05:00.000Z')
  })
})

describe('branch names from titles', () => {
  it('slugs like the server', () => {
    expect(slugOf('Spring promo')).toBe('spring-promo')
    expect(slugOf('  Été: 50% off!  ')).toBe('ete-50-off')
  })
})
