import { describe, expect, it } from 'vitest'
import { PAID_CLICK_ID_MIN_LENGTH, PAID_CLICK_ID_PARAMS } from '../constants'
import { isPaidTraffic } from './paid-flag'
import { paidFlagParams } from './url-params'

const long = 'x'.repeat(PAID_CLICK_ID_MIN_LENGTH)
const short = 'x'.repeat(PAID_CLICK_ID_MIN_LENGTH - 1)

describe('paid flag (spec point 3)', () => {
  it('uses the spec constants: 15 characters and the eight click ids', () => {
    expect(PAID_CLICK_ID_MIN_LENGTH).toBe(15)
    expect([...PAID_CLICK_ID_PARAMS]).toEqual([
      'fbclid',
      'gclid',
      'ttclid',
      'token',
      'saclid',
      'etid',
      'tbclid',
      'ScCid',
    ])
  })

  for (const id of PAID_CLICK_ID_PARAMS) {
    it(`${id}: 15 characters with a campaign is paid`, () => {
      expect(isPaidTraffic({ utm_campaign: 'c', [id]: long })).toBe(true)
      expect(isPaidTraffic(new URLSearchParams({ utm_campaign: 'c', [id]: long }))).toBe(true)
    })
    it(`${id}: 14 characters is not paid`, () => {
      expect(isPaidTraffic({ utm_campaign: 'c', [id]: short })).toBe(false)
    })
    it(`${id}: without a campaign is not paid`, () => {
      expect(isPaidTraffic({ [id]: long })).toBe(false)
      expect(isPaidTraffic({ utm_campaign: '', [id]: long })).toBe(false)
    })
  }

  it('longer click ids count; other parameters and case variants do not', () => {
    expect(isPaidTraffic({ utm_campaign: 'c', gclid: 'x'.repeat(100) })).toBe(true)
    expect(isPaidTraffic({ utm_campaign: 'c', tblci: long })).toBe(false)
    expect(isPaidTraffic({ utm_campaign: 'c', sccid: long })).toBe(false)
    expect(isPaidTraffic({ utm_campaign: 'c', utm_source: long })).toBe(false)
    expect(isPaidTraffic({ utm_campaign: 'c' })).toBe(false)
  })

  it('one qualifying click id is enough when others are short', () => {
    expect(isPaidTraffic({ utm_campaign: 'c', gclid: short, fbclid: long })).toBe(true)
  })

  it('a {token} path segment counts as token', () => {
    expect(isPaidTraffic(paidFlagParams('?utm_campaign=c', { token: long }))).toBe(true)
    expect(isPaidTraffic(paidFlagParams('?utm_campaign=c', { token: short }))).toBe(false)
    expect(isPaidTraffic(paidFlagParams('', { token: long }))).toBe(false)
  })
})
