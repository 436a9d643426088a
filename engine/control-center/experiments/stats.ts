/**
 * Statistics of experiment results (CONTROL-CENTER §4, issue 16), after GrowthBook's documented
 * method: a sample-ratio-mismatch χ² check, Bayesian chance to win with a delta-method relative lift,
 * its 95 % interval and risk, and chance to be best for more than two variants. Pure, no dependency.
 */

import { seededRandom } from '../../util/seeded-random'

/** Below these per variant, no chance to win is shown: "Not enough data". */
export const EXPERIMENT_MIN_USERS = 100
export const EXPERIMENT_MIN_LEADS = 10
/** A sample-ratio mismatch is flagged below this p-value (GrowthBook's default). */
export const SRM_P_THRESHOLD = 0.001
/** Seeded normal draws for "chance to be best" with more than two variants. */
export const CHANCE_TO_BE_BEST_DRAWS = 20_000

/** The standard normal cumulative distribution Φ(z), through erfc = Q(½, x²) (|error| < 1e-14). */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return Number.NaN
  return 0.5 * erfc(-z / Math.SQRT2)
}

/** The standard normal density φ(z). */
export function normalPdf(z: number): number {
  return Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI)
}

/** Inverse of Φ (Acklam's algorithm with one Halley step; |error| < 1e-12). */
export function normalQuantile(p: number): number {
  if (p <= 0) return Number.NEGATIVE_INFINITY
  if (p >= 1) return Number.POSITIVE_INFINITY
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ]
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572]
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ]
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416]
  const low = 0.02425
  let x: number
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p))
    x =
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
  } else if (p <= 1 - low) {
    const q = p - 0.5
    const r = q * q
    x =
      ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
      (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p))
    x =
      -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
  }
  const e = normalCdf(x) - p
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2)
  return x - u / (1 + (x * u) / 2)
}

/** The complementary error function: erfc(x) = Q(½, x²) for x ≥ 0, and 2 − erfc(−x) below. */
function erfc(x: number): number {
  if (x < 0) return 2 - erfc(-x)
  return x === 0 ? 1 : gammaQ(0.5, x * x)
}

/** ln Γ(x) (Lanczos, g = 7, n = 9; relative error < 1e-15). */
export function logGamma(x: number): number {
  const g = 7
  const coef = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ]
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x)
  const xx = x - 1
  let s = coef[0]
  for (let i = 1; i < g + 2; i++) s += coef[i] / (xx + i)
  const t = xx + g + 0.5
  return 0.5 * Math.log(2 * Math.PI) + (xx + 0.5) * Math.log(t) - t + Math.log(s)
}

/** The regularised upper incomplete gamma Q(a, x) = Γ(a, x)/Γ(a) (series below a+1, continued fraction above). */
export function gammaQ(a: number, x: number): number {
  if (x < 0 || a <= 0) return Number.NaN
  if (x === 0) return 1
  const lead = a * Math.log(x) - x - logGamma(a)
  if (x < a + 1) {
    // Series for P(a, x).
    let sum = 1 / a
    let term = sum
    for (let n = 1; n < 1000; n++) {
      term *= x / (a + n)
      sum += term
      if (Math.abs(term) < Math.abs(sum) * 1e-16) break
    }
    return 1 - sum * Math.exp(lead)
  }
  // Lentz's continued fraction for Q(a, x).
  const tiny = 1e-300
  let b = x + 1 - a
  let c = 1 / tiny
  let d = 1 / b
  let h = d
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a)
    b += 2
    d = an * d + b
    if (Math.abs(d) < tiny) d = tiny
    c = b + an / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const delta = d * c
    h *= delta
    if (Math.abs(delta - 1) < 1e-16) break
  }
  return Math.exp(lead) * h
}

/** P(X ≥ x) for X ~ χ²(df). */
export function chiSquareSurvival(x: number, df: number): number {
  return gammaQ(df / 2, x / 2)
}

export interface SrmResult {
  chiSquare: number
  pValue: number
  /** p < SRM_P_THRESHOLD: the split is not what the weights say; results are not to be trusted. */
  mismatch: boolean
}

/** Pearson's χ² of the users per variant against the split the weights promise (variants of weight 0 left out). */
export function sampleRatioMismatch(users: readonly number[], weights: readonly number[]): SrmResult {
  const kept = users.map((u, i) => ({ u, w: weights[i] ?? 0 })).filter((v) => v.w > 0)
  const total = kept.reduce((s, v) => s + v.u, 0)
  const weightSum = kept.reduce((s, v) => s + v.w, 0)
  if (kept.length < 2 || total === 0) return { chiSquare: 0, pValue: 1, mismatch: false }
  const chiSquare = kept.reduce((s, v) => {
    const expected = (total * v.w) / weightSum
    return s + (v.u - expected) ** 2 / expected
  }, 0)
  const pValue = chiSquareSurvival(chiSquare, kept.length - 1)
  return { chiSquare, pValue, mismatch: pValue < SRM_P_THRESHOLD }
}

export interface VariantCounts {
  users: number
  leads: number
}

export interface Comparison {
  /** Relative lift (pT − pC)/pC of the variant over control. */
  lift: number
  /** 95 % credible interval of the lift. */
  interval: [number, number]
  /** Posterior probability that the variant converts better than control. */
  chanceToWin: number
  /** Expected relative loss of choosing the variant: E[max(0, −Δ)]. */
  risk: number
  /** Expected relative loss of keeping control: E[max(0, Δ)]. */
  riskOfControl: number
}

export const enoughData = (v: VariantCounts) =>
  v.users >= EXPERIMENT_MIN_USERS && v.leads >= EXPERIMENT_MIN_LEADS

/** The lift's posterior N(Δ̂, σ²) under a flat prior, with the delta-method variance. */
export function liftPosterior(
  control: VariantCounts,
  variant: VariantCounts,
): { mean: number; sd: number } | null {
  if (control.users <= 0 || variant.users <= 0 || control.leads <= 0) return null
  const pc = control.leads / control.users
  const pt = variant.leads / variant.users
  const vc = pc * (1 - pc)
  const vt = pt * (1 - pt)
  const variance = (vc * pt * pt) / (pc ** 4 * control.users) + vt / (pc * pc * variant.users)
  return { mean: (pt - pc) / pc, sd: Math.sqrt(variance) }
}

/** Variant vs control; null when either lacks the data ("Not enough data"). */
export function compareToControl(control: VariantCounts, variant: VariantCounts): Comparison | null {
  if (!enoughData(control) || !enoughData(variant)) return null
  const post = liftPosterior(control, variant)
  if (!post) return null
  const { mean, sd } = post
  const z = normalQuantile(0.975)
  if (sd === 0)
    return {
      lift: mean,
      interval: [mean, mean],
      chanceToWin: mean > 0 ? 1 : mean < 0 ? 0 : 0.5,
      risk: Math.max(0, -mean),
      riskOfControl: Math.max(0, mean),
    }
  const r = mean / sd
  return {
    lift: mean,
    interval: [mean - z * sd, mean + z * sd],
    chanceToWin: 1 - normalCdf(-r),
    // For D ~ N(μ, σ²): E[max(0, −D)] = σφ(μ/σ) − μΦ(−μ/σ); E[max(0, D)] = σφ(μ/σ) + μΦ(μ/σ).
    risk: sd * normalPdf(r) - mean * normalCdf(-r),
    riskOfControl: sd * normalPdf(r) + mean * normalCdf(r),
  }
}

/** A seeded generator of standard normal draws (mulberry32 + Box–Muller): the same answer every time. */
function normalDraws(seed: number): () => number {
  const next = seededRandom(seed)
  const uniform = () => next() / 4294967296
  return () => {
    const u = 1 - uniform()
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform())
  }
}

/**
 * For each variant, the chance that it converts best: seeded draws of every variant's conversion
 * rate from its posterior N(p̂, p̂(1 − p̂)/n), counting which is highest. Null when any variant lacks
 * the data.
 */
export function chanceToBeBest(
  variants: readonly VariantCounts[],
  draws = CHANCE_TO_BE_BEST_DRAWS,
  seed = 20_261_123,
): number[] | null {
  if (variants.length < 2 || !variants.every(enoughData)) return null
  const posts = variants.map((v) => {
    const p = v.leads / v.users
    return { mean: p, sd: Math.sqrt((p * (1 - p)) / v.users) }
  })
  const wins = new Array<number>(variants.length).fill(0)
  const next = normalDraws(seed)
  for (let i = 0; i < draws; i++) {
    let best = 0
    let bestValue = Number.NEGATIVE_INFINITY
    for (let j = 0; j < posts.length; j++) {
      const v = posts[j].mean + posts[j].sd * next()
      if (v > bestValue) {
        bestValue = v
        best = j
      }
    }
    wins[best]++
  }
  return wins.map((w) => w / draws)
}
