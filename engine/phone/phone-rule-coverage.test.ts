import { describe, expect, it } from 'vitest'
import type { PhoneRule } from '../../schemas/generated/phone-rule'
import {
  fallThroughMessage,
  nextBusinessOpening,
  phoneCoverageMatrix,
  phoneRuleConditions,
  phoneRuleCoverage,
  phoneRulesInOrder,
  shadowedMessage,
  whichPhoneRule,
} from './phone-rule-coverage'

const rule = (id: string, match?: PhoneRule['match'], brand = 'm10'): PhoneRule => ({
  id,
  brand,
  match,
  defaultNumber: '18885550100',
  placementId: `p-${id}`,
  afid: `a-${id}`,
})
const pages = new Map([
  ['m10', ['home-m10', 'grocery', 'otc']],
  ['tqg', ['home-tqg']],
])

describe('phone-rule coverage', () => {
  it('finds no shadowed rule in a sensible set, and lists pages falling through to the default', () => {
    const rules = [
      rule('m10-default'),
      rule('m10-facebook', { utmSource: ['facebook', 'fb'] }),
      rule('m10-home-google', { pages: ['home-m10'], utmSource: ['google'] }),
      rule('tqg-default', undefined, 'tqg'),
    ]
    const c = phoneRuleCoverage(rules, pages)
    expect(c.shadowed).toEqual([])
    expect(c.fallThrough).toEqual([
      { brand: 'm10', defaultRule: 'm10-default', pages: ['grocery', 'otc'], specificPages: ['home-m10'] },
    ])
    expect(fallThroughMessage(c.fallThrough[0])).toBe(
      '2 pages of brand "m10" fall through to the default "m10-default" (no page-specific rule, unlike home-m10): grocery, otc',
    )
  })

  it('a rule every visitor of which an earlier rule claims can never win', () => {
    const rules = [
      rule('m10-default'),
      rule('m10-google', { utmSource: ['google'] }),
      // covers every page of the brand and more sources, and is more specific: always wins first
      rule('m10-all-pages', { pages: ['home-m10', 'grocery', 'otc'], utmSource: ['google', 'bing'] }),
    ]
    const c = phoneRuleCoverage(rules, pages)
    expect(c.shadowed).toEqual([{ id: 'm10-google', brand: 'm10', shadowedBy: ['m10-all-pages'] }])
    expect(shadowedMessage(c.shadowed[0])).toBe(
      'phone rule "m10-google" can never win: wherever it matches, "m10-all-pages" wins first',
    )
  })

  it('several rules together can shadow one; a rule for no served page matches nobody', () => {
    const rules = [
      rule('m10-default'),
      rule('m10-google', { utmSource: ['google'] }),
      rule('m10-a', { pages: ['home-m10', 'grocery'], utmSource: ['google'] }),
      rule('m10-b', { pages: ['otc'], utmSource: ['GOOGLE'] }),
      rule('m10-gone', { pages: ['retired'] }),
    ]
    const c = phoneRuleCoverage(rules, pages)
    expect(c.shadowed).toEqual([
      { id: 'm10-google', brand: 'm10', shadowedBy: ['m10-a', 'm10-b'] },
      { id: 'm10-gone', brand: 'm10', shadowedBy: [] },
    ])
    expect(shadowedMessage(c.shadowed[1])).toContain('matches no visitor of a page served on brand "m10"')
  })

  it('an equal rule sorting later loses every tie', () => {
    const c = phoneRuleCoverage(
      [rule('m10-default'), rule('m10-x', { afid: ['1'] }), rule('m10-y', { afid: ['1'] })],
      pages,
    )
    expect(c.shadowed.map((s) => s.id)).toEqual(['m10-y'])
  })

  it('the default is shadowed when a rule for every page and any source exists', () => {
    const c = phoneRuleCoverage(
      [rule('tqg-default', undefined, 'tqg'), rule('tqg-home', { pages: ['home-tqg'] }, 'tqg')],
      pages,
    )
    expect(c.shadowed).toEqual([{ id: 'tqg-default', brand: 'tqg', shadowedBy: ['tqg-home'] }])
  })
})

describe('the page × traffic source matrix', () => {
  const rules = [
    rule('m10-default'),
    rule('m10-facebook', { utmSource: ['Facebook', 'fb'] }),
    rule('m10-home-google', { pages: ['home-m10'], utmSource: ['google'] }),
    rule('m10-partner', { afid: ['777'] }),
    rule('tqg-default', undefined, 'tqg'),
  ]
  it('names the winner of every page and source of the brand, as the engine chooses', () => {
    const m = phoneCoverageMatrix(rules, 'm10', ['otc', 'home-m10', 'grocery'])
    expect(m.sources).toEqual([null, 'facebook', 'fb', 'google'])
    expect(m.rows).toEqual([
      { page: 'grocery', winners: ['m10-default', 'm10-facebook', 'm10-facebook', 'm10-default'] },
      { page: 'home-m10', winners: ['m10-default', 'm10-facebook', 'm10-facebook', 'm10-home-google'] },
      { page: 'otc', winners: ['m10-default', 'm10-facebook', 'm10-facebook', 'm10-default'] },
    ])
    for (const row of m.rows)
      m.sources.forEach((utmSource, i) => {
        expect(row.winners[i]).toBe(
          whichPhoneRule(rules, { brandId: 'm10', pageKey: row.page, utmSource, afid: null })?.id ?? null,
        )
      })
  })

  it('for visitors with its afid, an afid rule (the most specific criterion) takes every cell', () => {
    const m = phoneCoverageMatrix(rules, 'm10', ['home-m10'], '777')
    expect(m.rows[0].winners).toEqual(['m10-partner', 'm10-partner', 'm10-partner', 'm10-partner'])
    expect(phoneCoverageMatrix(rules, 'm10', ['home-m10'], '778').rows[0].winners[0]).toBe('m10-default')
  })

  it('a brand without rules has empty cells', () => {
    expect(phoneCoverageMatrix(rules, 'gs', ['home-gs']).rows).toEqual([{ page: 'home-gs', winners: [null] }])
  })
})

describe('which rule wins, and why', () => {
  const rules = [
    rule('m10-default'),
    rule('m10-facebook', { utmSource: ['facebook'] }),
    rule('m10-home-google', { pages: ['home-m10'], utmSource: ['google'] }),
  ]
  it('uses the site’s selection on the page’s rules', () => {
    expect(whichPhoneRule(rules, { brandId: 'm10', pageKey: 'otc', utmSource: 'Facebook' })?.id).toBe(
      'm10-facebook',
    )
    expect(whichPhoneRule(rules, { brandId: 'm10', pageKey: 'otc', utmSource: 'google' })?.id).toBe(
      'm10-default',
    )
    expect(whichPhoneRule(rules, { brandId: 'tqg', pageKey: 'otc' })).toBeNull()
  })
  it('orders rules as tried: most specific first, the default last', () => {
    expect(phoneRulesInOrder([...rules].reverse()).map((r) => r.id)).toEqual([
      'm10-home-google',
      'm10-facebook',
      'm10-default',
    ])
  })
  it('says which conditions hold', () => {
    expect(phoneRuleConditions(rules[2], { brandId: 'm10', pageKey: 'home-m10', utmSource: 'bing' })).toEqual(
      [
        { criterion: 'brand', values: ['m10'], met: true },
        { criterion: 'pages', values: ['home-m10'], met: true },
        { criterion: 'utmSource', values: ['google'], met: false },
      ],
    )
  })
})

describe('when the number next shows (Los Angeles business hours)', () => {
  it('is now when open', () => {
    const monday10 = new Date('2026-11-23T18:00:00Z') // Monday 10:00 in LA (PST)
    expect(nextBusinessOpening(monday10)?.toISOString()).toBe(monday10.toISOString())
  })
  it('is the next opening hour when closed', () => {
    // Friday 17:30 PST → Saturday 06:00 PST; with utm_medium=aff Saturday is closed → Monday 05:00
    const friday = new Date('2026-11-28T01:30:00Z')
    expect(nextBusinessOpening(friday)?.toISOString()).toBe('2026-11-28T14:00:00.000Z')
    expect(nextBusinessOpening(friday, 'aff')?.toISOString()).toBe('2026-11-30T13:00:00.000Z')
  })
})
