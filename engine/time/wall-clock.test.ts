import { DateTime } from 'luxon'
import { describe, expect, it } from 'vitest'
import { BUSINESS_TIME_ZONE } from '../constants'
import { wallClock } from './wall-clock'

describe('wallClock', () => {
  it('agrees with luxon every 15 minutes for two years of Los Angeles time (both DST changes)', () => {
    const start = Date.parse('2026-01-01T00:00:00Z')
    const end = Date.parse('2028-01-01T00:00:00Z')
    let checked = 0
    for (let t = start; t < end; t += 15 * 60_000) {
      const l = DateTime.fromMillis(t, { zone: BUSINESS_TIME_ZONE })
      const w = wallClock(t, BUSINESS_TIME_ZONE)
      if (w.weekday !== l.weekday || w.hour !== l.hour || w.minute !== l.minute)
        throw new Error(`${new Date(t).toISOString()}: ${JSON.stringify(w)} vs luxon ${l.toISO()}`)
      checked++
    }
    expect(checked).toBe(2 * 365 * 96)
  })

  it('reads other zones too and accepts a Date', () => {
    expect(wallClock(new Date('2026-11-23T23:30:00Z'), 'Asia/Tokyo')).toEqual({
      weekday: 2,
      hour: 8,
      minute: 30,
    })
    expect(wallClock(Date.parse('2026-11-23T00:05:00Z'), 'UTC')).toEqual({ weekday: 1, hour: 0, minute: 5 })
  })

  it('names the zone when it cannot be read', () => {
    expect(() => wallClock(0, 'Not/AZone')).toThrow(RangeError)
  })
})
