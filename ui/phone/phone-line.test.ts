import { DateTime } from 'luxon'
import { describe, expect, it } from 'vitest'
import type { PhoneRule } from '../../schemas/generated/phone-rule'
import { NO_PHONE } from './phone-feature'
import { phoneLineAt } from './phone-line'

const LA = 'America/Los_Angeles'
const TUESDAY_10 = DateTime.fromISO('2026-11-24T10:00', { zone: LA }).toMillis()
const SUNDAY_10 = DateTime.fromISO('2026-11-29T10:00', { zone: LA }).toMillis()
const rule = { id: 'm10-default', brand: 'm10', defaultNumber: '18885550101' } as unknown as PhoneRule

describe('phoneLineAt: the line the header and the call to action show (React hook and island alike)', () => {
  it('is closed without a phone rule', () => {
    expect(phoneLineAt(NO_PHONE, TUESDAY_10)).toEqual({ status: 'closed' })
  })
  it('is closed outside business hours, whatever the lease', () => {
    const leased = { value: '18005550199', expiresAt: SUNDAY_10 + 60_000 }
    expect(phoneLineAt({ rule, leased, utmMedium: null }, SUNDAY_10)).toEqual({ status: 'closed' })
  })
  it('shows the rule’s default number in business hours, not marked leased', () => {
    expect(phoneLineAt({ rule, leased: null, utmMedium: null }, TUESDAY_10)).toEqual({
      status: 'open',
      leased: false,
      raw: '18885550101',
      href: 'tel:+18885550101',
      dashed: '1-888-555-0101',
    })
  })
  it('shows a leased number until its lease ends, then the default again', () => {
    const leased = { value: '18005550199', expiresAt: TUESDAY_10 + 60_000 }
    expect(phoneLineAt({ rule, leased, utmMedium: null }, TUESDAY_10)).toMatchObject({
      status: 'open',
      leased: true,
      dashed: '1-800-555-0199',
    })
    expect(phoneLineAt({ rule, leased, utmMedium: null }, TUESDAY_10 + 60_000)).toMatchObject({
      leased: false,
      raw: '18885550101',
    })
  })
})
