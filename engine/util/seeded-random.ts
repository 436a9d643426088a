/**
 * mulberry32: a small seeded generator of uint32 values — the same sequence for the same seed on every
 * run (experiment-result draws, test and bench inputs). Not for anything that must be unpredictable.
 */
export function seededRandom(seed: number): () => number {
  let s = seed | 0
  return () => {
    s = (s + 0x6d2b79f5) | 0
    let t = Math.imul(s ^ (s >>> 15), 1 | s)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return (t ^ (t >>> 14)) >>> 0
  }
}
