import { describe, expect, it } from 'vitest'
import {
  chanceToBeBest,
  chiSquareSurvival,
  compareToControl,
  EXPERIMENT_MIN_LEADS,
  EXPERIMENT_MIN_USERS,
  logGamma,
  normalCdf,
  normalQuantile,
  sampleRatioMismatch,
} from './stats'

// Reference values: Abramowitz & Stegun tables 26.1 (normal) and 26.8 (χ² percentage points), and
// Γ(5) = 24, Γ(½) = √π.
describe('distributions', () => {
  it('Φ and its inverse match the tables', () => {
    expect(normalCdf(0)).toBe(0.5)
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 12)
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145707, 12)
    expect(normalCdf(3)).toBeCloseTo(0.9986501019683699, 12)
    expect(normalCdf(-6)).toBeCloseTo(9.865876450376946e-10, 18)
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 9)
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306167813, 9)
    for (const p of [0.01, 0.2, 0.5, 0.9, 0.999]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 12)
  })

  it('the χ² survival function gives the tabled percentage points', () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12)
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12)
    expect(chiSquareSurvival(3.841458820694124, 1)).toBeCloseTo(0.05, 10)
    expect(chiSquareSurvival(5.991464547107979, 2)).toBeCloseTo(0.05, 10)
    expect(chiSquareSurvival(16.26623619623813, 3)).toBeCloseTo(0.001, 10)
    expect(chiSquareSurvival(10.827566170662733, 1)).toBeCloseTo(0.001, 10)
    expect(chiSquareSurvival(0, 4)).toBe(1)
  })
})

describe('sample-ratio mismatch', () => {
  it('passes a fair 50/50 split and flags one that cannot come from the weights', () => {
    // χ² = 2 × 150² / 10,150 = 4.433 → p = 0.035: unusual, not alarming.
    const fair = sampleRatioMismatch([10_000, 10_300], [50, 50])
    expect(fair.chiSquare).toBeCloseTo(4.4335, 3)
    expect(fair.pValue).toBeCloseTo(0.03524, 4)
    expect(fair.mismatch).toBe(false)
    // χ² = 2 × 300² / 10,300 = 17.48 → p = 2.9e-5 < 0.001.
    const broken = sampleRatioMismatch([10_000, 10_600], [50, 50])
    expect(broken.pValue).toBeLessThan(0.001)
    expect(broken.mismatch).toBe(true)
  })

  it('uses the weights, and leaves out variants with weight 0', () => {
    expect(sampleRatioMismatch([9_000, 1_000, 55], [90, 10, 0]).chiSquare).toBe(0)
    expect(sampleRatioMismatch([0, 0], [50, 50]).mismatch).toBe(false)
  })
})

describe('chance to win', () => {
  it('follows the delta method for the relative lift', () => {
    // Control 100/1000 (10 %), variant 120/1000 (12 %): lift 0.2; variance
    // 0.09·0.12²/(0.1⁴·1000) + 0.12·0.88/(0.1²·1000) = 0.01296 + 0.01056 = 0.02352 (sd 0.15336).
    const r = compareToControl({ users: 1000, leads: 100 }, { users: 1000, leads: 120 })!
    expect(r.lift).toBeCloseTo(0.2, 12)
    const sd = Math.sqrt(0.02352)
    expect(r.chanceToWin).toBeCloseTo(normalCdf(0.2 / sd), 12)
    expect(r.chanceToWin).toBeCloseTo(0.9039, 3)
    expect(r.interval[0]).toBeCloseTo(0.2 - 1.959963984540054 * sd, 9)
    expect(r.interval[1]).toBeCloseTo(0.2 + 1.959963984540054 * sd, 9)
    // Risk is small when the variant is likely better, and the two risks differ by the mean.
    expect(r.risk).toBeGreaterThan(0)
    expect(r.risk).toBeLessThan(r.riskOfControl)
    expect(r.riskOfControl - r.risk).toBeCloseTo(r.lift, 12)
  })

  it("gives issue 16's worked example: 250 vs 300 leads of 5,000 each is +20 % at about 97.7 %", () => {
    const r = compareToControl({ users: 5000, leads: 250 }, { users: 5000, leads: 300 })!
    expect(r.lift).toBeCloseTo(0.2, 12)
    expect(r.chanceToWin).toBeCloseTo(0.977, 3)
    expect(sampleRatioMismatch([5000, 5000], [50, 50]).mismatch).toBe(false)
    expect(sampleRatioMismatch([5000, 4600], [50, 50]).mismatch).toBe(true)
  })

  it('is symmetric: the worse variant has the complementary chance', () => {
    const up = compareToControl({ users: 5000, leads: 400 }, { users: 5000, leads: 460 })!
    const down = compareToControl({ users: 5000, leads: 460 }, { users: 5000, leads: 400 })!
    expect(up.chanceToWin).toBeGreaterThan(0.95)
    expect(down.chanceToWin).toBeLessThan(0.05)
  })

  it('says nothing below the minimum users or leads per variant', () => {
    const enough = { users: EXPERIMENT_MIN_USERS, leads: EXPERIMENT_MIN_LEADS }
    expect(compareToControl(enough, enough)).not.toBeNull()
    expect(compareToControl(enough, { users: EXPERIMENT_MIN_USERS - 1, leads: 50 })).toBeNull()
    expect(compareToControl({ users: 5000, leads: EXPERIMENT_MIN_LEADS - 1 }, enough)).toBeNull()
  })
})

describe('chance to be best', () => {
  it('agrees with the chance to win for two variants and splits evenly between equals', () => {
    const two = chanceToBeBest([
      { users: 1000, leads: 100 },
      { users: 1000, leads: 120 },
    ])!
    expect(two[0] + two[1]).toBeCloseTo(1, 12)
    // The rate-difference view and the lift view agree closely at this size.
    expect(two[1]).toBeGreaterThan(0.88)
    expect(two[1]).toBeLessThan(0.93)
    const equal = chanceToBeBest([
      { users: 2000, leads: 200 },
      { users: 2000, leads: 200 },
      { users: 2000, leads: 200 },
    ])!
    for (const c of equal) expect(c).toBeCloseTo(1 / 3, 1)
  })

  it('is the same on every call (seeded) and null without enough data', () => {
    const v = [
      { users: 1500, leads: 150 },
      { users: 1500, leads: 165 },
      { users: 1500, leads: 140 },
    ]
    expect(chanceToBeBest(v)).toEqual(chanceToBeBest(v))
    expect(chanceToBeBest([v[0], { users: 50, leads: 20 }])).toBeNull()
  })
})
