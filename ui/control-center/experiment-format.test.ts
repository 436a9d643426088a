import { describe, expect, it } from 'vitest'
import { pct, pValue, weightsHealth } from './experiment-format'

describe('experiment numbers for people', () => {
  it('formats rates, lifts and p-values', () => {
    expect(pct(0.05)).toBe('5.0%')
    expect(pct(0.2, 1, true)).toBe('+20.0%')
    expect(pct(-0.031, 1, true)).toBe('−3.1%')
    expect(pct(null)).toBe('—')
    expect(pValue(0.00001)).toBe('p < 0.0001')
    expect(pValue(0.0004)).toBe('p = 0.0004')
    expect(pValue(0.4123)).toBe('p = 0.412')
  })

  it('says whether the weights changed at the start of the phase', () => {
    const phases: { n: number; weights: Record<string, number> }[] = [
      { n: 1, weights: { control: 50, question: 50 } },
      { n: 2, weights: { control: 50, question: 50 } },
      { n: 3, weights: { control: 80, question: 20 } },
      { n: 4, weights: { control: 80, question: 10, short: 10 } },
    ]
    expect(weightsHealth(phases, 1)).toEqual({
      value: '50 / 50',
      detail: 'Since the first phase',
      changed: false,
    })
    expect(weightsHealth(phases, 2)).toEqual({ value: '50 / 50', detail: 'Same as phase 1', changed: false })
    expect(weightsHealth(phases, 3)).toEqual({
      value: 'Changed this phase',
      detail: '50 / 50 → 80 / 20; earlier phases are analysed apart',
      changed: true,
    })
    expect(weightsHealth(phases, 4)?.changed).toBe(true)
    expect(weightsHealth(phases, 9)).toBeNull()
  })
})
