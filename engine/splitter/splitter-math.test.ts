import { describe, expect, it } from 'vitest'
import { hitAreaMargin, keyboardStep, normaliseLayout, resizeAt, roundSize, snapSize } from './splitter-math'

const total = (xs: number[]) => roundSize(xs.reduce((a, b) => a + b, 0))

describe('normaliseLayout', () => {
  it('leaves a layout that totals 100 alone', () => {
    expect(normaliseLayout([30, 70])).toEqual([30, 70])
  })
  it('scales a layout that does not total 100', () => {
    expect(normaliseLayout([1, 1, 2])).toEqual([25, 25, 50])
    expect(normaliseLayout([20, 20])).toEqual([50, 50])
  })
  it('rounds to 10 decimals and still totals exactly 100', () => {
    const out = normaliseLayout([1, 1, 1])
    expect(out.every((x) => (x.toString().split('.')[1] ?? '').length <= 10)).toBe(true)
    expect([...out].sort()).toEqual([33.3333333333, 33.3333333333, 33.3333333334])
    expect(total(out)).toBe(100)
  })
  it('splits equally when empty, zero or invalid', () => {
    expect(normaliseLayout([0, 0])).toEqual([50, 50])
    expect(normaliseLayout([Number.NaN, -5, 0, 0])).toEqual([25, 25, 25, 25])
  })
})

describe('snapSize (collapsible)', () => {
  const c = { collapsible: true, collapsedSize: 4, minSize: 20 }
  it('snaps to collapsed below the midpoint between collapsed and minimum', () => {
    expect(snapSize(11.99, c)).toBe(4)
  })
  it('snaps to the minimum at or above the midpoint', () => {
    expect(snapSize(12, c)).toBe(20)
    expect(snapSize(19, c)).toBe(20)
  })
  it('keeps sizes at or above the minimum, clamped to the maximum', () => {
    expect(snapSize(35, { ...c, maxSize: 30 })).toBe(30)
    expect(snapSize(25, c)).toBe(25)
  })
  it('a panel that is not collapsible clamps to its minimum', () => {
    expect(snapSize(2, { minSize: 20 })).toBe(20)
  })
})

describe('keyboard', () => {
  it('steps 10 %, Shift 100 %, by orientation', () => {
    expect(keyboardStep('ArrowRight', false, 'horizontal')).toBe(10)
    expect(keyboardStep('ArrowLeft', false, 'horizontal')).toBe(-10)
    expect(keyboardStep('ArrowLeft', true, 'horizontal')).toBe(-100)
    expect(keyboardStep('ArrowDown', false, 'vertical')).toBe(10)
    expect(keyboardStep('ArrowRight', false, 'vertical')).toBeNull()
    expect(keyboardStep('a', false, 'horizontal')).toBeNull()
  })
  it('a keyboard step resizes the two panels around the separator', () => {
    expect(resizeAt([50, 50], 0, 10, [])).toEqual([60, 40])
    expect(resizeAt([30, 30, 40], 1, -10, [])).toEqual([30, 20, 50])
  })
  it('Shift step collapses a collapsible panel in one press and respects the other minimum', () => {
    expect(resizeAt([50, 50], 0, -100, [{ collapsible: true, minSize: 20 }, { minSize: 10 }])).toEqual([
      0, 100,
    ])
    expect(resizeAt([50, 50], 0, 100, [{}, { minSize: 10 }])).toEqual([90, 10])
  })
  it('a step into the snap zone collapses or stops at the minimum', () => {
    const c = [{ collapsible: true, collapsedSize: 0, minSize: 30 }, {}]
    expect(resizeAt([40, 60], 0, -10, c)).toEqual([30, 70])
    expect(resizeAt([30, 70], 0, -10, c)).toEqual([30, 70])
    expect(resizeAt([30, 70], 0, -20, c)).toEqual([0, 100])
  })
})

describe('hit area', () => {
  it('is 15 px for coarse and 5 px for fine pointers', () => {
    expect(hitAreaMargin(true)).toBe(15)
    expect(hitAreaMargin(false)).toBe(5)
  })
})
