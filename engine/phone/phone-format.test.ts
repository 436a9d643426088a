import { describe, expect, it } from 'vitest'
import { formatPhoneDashed, phoneDisplay } from './phone-format'

describe('phone formatting', () => {
  it('dash format: country code, then 3, 3 and the rest', () => {
    expect(formatPhoneDashed('18005551234')).toBe('1-800-555-1234')
    expect(formatPhoneDashed('+1 (888) 555-0101')).toBe('1-888-555-0101')
    expect(formatPhoneDashed('1-877-555-0142')).toBe('1-877-555-0142')
  })
  it('keeps the rest whole when longer, and partial groups when shorter', () => {
    expect(formatPhoneDashed('180055512345')).toBe('1-800-555-12345')
    expect(formatPhoneDashed('1800555')).toBe('1-800-555')
    expect(formatPhoneDashed('')).toBe('')
  })
  it('gives the raw value and a tel: link', () => {
    expect(phoneDisplay('1 (866) 555-0199')).toEqual({
      raw: '18665550199',
      href: 'tel:+18665550199',
      dashed: '1-866-555-0199',
    })
  })
})
