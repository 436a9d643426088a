import { DateTime } from 'luxon'
import { describe, expect, it } from 'vitest'
import { isWithinBusinessHours } from './business-hours'

const la = (iso: string) => DateTime.fromISO(iso, { zone: 'America/Los_Angeles' }).toMillis()

describe('business hours in Los Angeles time', () => {
  // 2026-11-23 is a Monday.
  const table: [string, string, boolean][] = [
    ['Monday 04:59', '2026-11-23T04:59:59', false],
    ['Monday 05:00', '2026-11-23T05:00', true],
    ['Monday 16:59', '2026-11-23T16:59:59', true],
    ['Monday 17:00', '2026-11-23T17:00', false],
    ['Tuesday 10:00', '2026-11-24T10:00', true],
    ['Wednesday 04:00', '2026-11-25T04:00', false],
    ['Thursday 12:00', '2026-11-26T12:00', true],
    ['Friday 16:30', '2026-11-27T16:30', true],
    ['Friday 23:00', '2026-11-27T23:00', false],
    ['Saturday 05:59', '2026-11-28T05:59', false],
    ['Saturday 06:00', '2026-11-28T06:00', true],
    ['Saturday 14:59', '2026-11-28T14:59:59', true],
    ['Saturday 15:00', '2026-11-28T15:00', false],
    ['Sunday 10:00', '2026-11-29T10:00', false],
    ['Sunday 05:00', '2026-11-29T05:00', false],
  ]
  it.each(table)('%s → %s', (_label, iso, open) => {
    expect(isWithinBusinessHours(la(iso))).toBe(open)
  })

  it('uses Los Angeles time whatever the instant is written in', () => {
    // 13:00 UTC on a Tuesday in November is 05:00 in Los Angeles (UTC-8).
    expect(isWithinBusinessHours(Date.parse('2026-11-24T13:00:00Z'))).toBe(true)
    expect(isWithinBusinessHours(Date.parse('2026-11-24T12:59:59Z'))).toBe(false)
    // 01:00 UTC Wednesday is still Tuesday 17:00 in Los Angeles: closed.
    expect(isWithinBusinessHours(new Date('2026-11-25T01:00:00Z'))).toBe(false)
  })

  it('affiliate traffic sees no Saturday line, other days unchanged', () => {
    expect(isWithinBusinessHours(la('2026-11-28T10:00'), 'aff')).toBe(false)
    expect(isWithinBusinessHours(la('2026-11-28T10:00'), 'cpc')).toBe(true)
    expect(isWithinBusinessHours(la('2026-11-24T10:00'), 'aff')).toBe(true)
    expect(isWithinBusinessHours(la('2026-11-29T10:00'), 'aff')).toBe(false)
  })

  describe('daylight-saving change days', () => {
    it('2026-03-08 (Sunday, clocks go forward) stays closed; Monday after opens at 05:00 PDT', () => {
      expect(isWithinBusinessHours(la('2026-03-08T10:00'))).toBe(false)
      expect(isWithinBusinessHours(Date.parse('2026-03-09T12:00:00Z'))).toBe(true) // 05:00 PDT (UTC-7)
      expect(isWithinBusinessHours(Date.parse('2026-03-09T11:59:59Z'))).toBe(false) // 04:59 PDT
    })
    it('Saturday before 2026-03-08 still uses PST', () => {
      expect(isWithinBusinessHours(Date.parse('2026-03-07T14:00:00Z'))).toBe(true) // 06:00 PST
      expect(isWithinBusinessHours(Date.parse('2026-03-07T13:59:59Z'))).toBe(false)
    })
    it('2026-11-01 (Sunday, clocks go back) stays closed; Monday after opens at 05:00 PST', () => {
      expect(isWithinBusinessHours(la('2026-11-01T01:30'))).toBe(false)
      expect(isWithinBusinessHours(la('2026-11-01T12:00'))).toBe(false)
      expect(isWithinBusinessHours(Date.parse('2026-11-02T13:00:00Z'))).toBe(true) // 05:00 PST (UTC-8)
      expect(isWithinBusinessHours(Date.parse('2026-11-02T12:59:59Z'))).toBe(false)
    })
    it('Saturday 2026-10-31 closes at 15:00 PDT', () => {
      expect(isWithinBusinessHours(Date.parse('2026-10-31T21:59:59Z'))).toBe(true) // 14:59 PDT
      expect(isWithinBusinessHours(Date.parse('2026-10-31T22:00:00Z'))).toBe(false)
    })
  })
})
