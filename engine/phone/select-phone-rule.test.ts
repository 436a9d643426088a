import { describe, expect, it } from 'vitest'
import type { PhoneRule } from '../../schemas/generated/phone-rule'
import { phoneRulesForPage, selectPhoneRule } from './select-phone-rule'

const rule = (id: string, match?: PhoneRule['match'], brand = 'm10'): PhoneRule => ({
  id,
  brand,
  match,
  defaultNumber: '18885550100',
  placementId: `p-${id}`,
  afid: `a-${id}`,
})
const rules = [
  rule('m10-default'),
  rule('m10-grocery', { pages: ['grocery'] }),
  rule('m10-facebook', { utmSource: ['facebook'] }),
  rule('m10-grocery-facebook', { pages: ['grocery'], utmSource: ['Facebook'] }),
  rule('m10-partner', { afid: ['90210'] }),
  rule('tqg-default', undefined, 'tqg'),
]

describe('selecting a phone rule', () => {
  const pick = (f: Partial<Parameters<typeof selectPhoneRule>[1]>) =>
    selectPhoneRule(rules, { brandId: 'm10', pageKey: null, ...f })?.id

  it('falls back to the brand default', () => {
    expect(pick({ pageKey: 'otc' })).toBe('m10-default')
    expect(selectPhoneRule(rules, { brandId: 'tqg', pageKey: 'grocery' })?.id).toBe('tqg-default')
    expect(selectPhoneRule(rules, { brandId: 'ccc', pageKey: null })).toBeNull()
  })
  it('most specific wins: afid > utm_source > page, combined criteria beat single ones', () => {
    expect(pick({ pageKey: 'grocery' })).toBe('m10-grocery')
    expect(pick({ pageKey: 'otc', utmSource: 'facebook' })).toBe('m10-facebook')
    expect(pick({ pageKey: 'grocery', utmSource: 'FACEBOOK' })).toBe('m10-grocery-facebook')
    expect(pick({ pageKey: 'grocery', utmSource: 'facebook', afid: '90210' })).toBe('m10-partner')
  })
  it('all criteria of a rule must hold', () => {
    expect(pick({ pageKey: 'otc', afid: '11111' })).toBe('m10-default')
  })
  it('lists the rules a page can use whatever the source', () => {
    expect(phoneRulesForPage(rules, 'm10', 'otc').map((r) => r.id)).toEqual([
      'm10-default',
      'm10-facebook',
      'm10-partner',
    ])
  })
})
