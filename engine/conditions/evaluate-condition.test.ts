import { describe, expect, it } from 'vitest'
import { evaluateCondition } from './evaluate-condition'

const ctx = (values = {}, demand: { bid: number; isLowBid: boolean } | null = null) => ({ values, demand })

describe('evaluateCondition', () => {
  it('compares answers, loosely by text', () => {
    expect(
      evaluateCondition(
        { type: 'answer-equals', field: 'haveMedicare', value: true },
        ctx({ haveMedicare: true }),
      ),
    ).toBe(true)
    expect(
      evaluateCondition(
        { type: 'answer-equals', field: 'vehicleAmount', value: 2 },
        ctx({ vehicleAmount: '2' }),
      ),
    ).toBe(true)
    expect(evaluateCondition({ type: 'answer-equals', field: 'haveMedicare', value: false }, ctx({}))).toBe(
      false,
    )
    expect(
      evaluateCondition(
        { type: 'answer-in', field: 'creditRating', values: ['good', 'excellent'] },
        ctx({ creditRating: 'good' }),
      ),
    ).toBe(true)
  })
  it('knows low bids (below 10) and treats an unknown demand as neither', () => {
    expect(evaluateCondition({ type: 'low-bid' }, ctx({}, { bid: 9.99, isLowBid: true }))).toBe(true)
    expect(evaluateCondition({ type: 'not-low-bid' }, ctx({}, { bid: 10, isLowBid: false }))).toBe(true)
    expect(evaluateCondition({ type: 'low-bid' }, ctx())).toBe(false)
    expect(evaluateCondition({ type: 'not-low-bid' }, ctx())).toBe(false)
  })
  it('combines with not / all / any', () => {
    const yes = { type: 'answer-equals', field: 'homeowner', value: true } as const
    const c = ctx({ homeowner: true })
    expect(evaluateCondition({ type: 'not', condition: yes }, c)).toBe(false)
    expect(evaluateCondition({ type: 'all', conditions: [yes, { type: 'low-bid' }] }, c)).toBe(false)
    expect(evaluateCondition({ type: 'any', conditions: [yes, { type: 'low-bid' }] }, c)).toBe(true)
  })
})
