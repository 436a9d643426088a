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
