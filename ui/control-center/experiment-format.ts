/** Numbers of the experiment screens, formatted one way (en-US, like the rest of the control center). */

/** 0.05 → "5.0%"; with `signed`, 0.2 → "+20.0%". */
export function pct(x: number | null | undefined, digits = 1, signed = false): string {
  if (x === null || x === undefined || Number.isNaN(x)) return '—'
  const s = `${(x * 100).toFixed(digits)}%`
  return signed && x > 0 ? `+${s}` : s.replace('-', '−')
}

/** A p-value for people, with its relation: "p < 0.0001", "p = 0.0004", "p = 0.412". */
export function pValue(p: number): string {
  return p < 0.0001 ? 'p < 0.0001' : p < 0.01 ? `p = ${p.toFixed(4)}` : `p = ${p.toFixed(3)}`
}

export const count = (n: number) => n.toLocaleString('en-US')

/** Whole days from `from` to now (or `to`), at least 0. */
export function daysBetween(from: string | null, to: string | null = null): number | null {
  if (!from) return null
  const end = to ? Date.parse(to) : Date.now()
  return Math.max(0, Math.floor((end - Date.parse(from)) / 86_400_000))
}

/** The split as people say it: "50 / 50" (in the variants' order). */
export const split = (w: Record<string, number>) => Object.values(w).join(' / ')

/**
 * The health strip's "weights changed in this phase": a phase starts at each publication that
 * changed the experiment's status or variants, so phase n's split is compared with phase n−1's.
 * Weights of a variant added or removed count as a change.
 */
export function weightsHealth(
  phases: readonly { n: number; weights: Record<string, number> }[],
  n: number,
): { value: string; detail: string; changed: boolean } | null {
  const i = phases.findIndex((p) => p.n === n)
  if (i < 0) return null
  const now = phases[i].weights
  const before = i > 0 ? phases[i - 1] : null
  const ids = new Set([...Object.keys(now), ...Object.keys(before?.weights ?? {})])
  const changed = before !== null && [...ids].some((id) => before.weights[id] !== now[id])
  if (changed)
    return {
      value: 'Changed this phase',
      detail: `${split(before.weights)} → ${split(now)}; earlier phases are analysed apart`,
      changed,
    }
  return {
    value: split(now),
    detail: before ? `Same as phase ${before.n}` : 'Since the first phase',
    changed,
  }
}
