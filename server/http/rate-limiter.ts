/**
 * The one request limiter: a fixed window of `limit` hits per `windowMs` per key (an IP and endpoint,
 * an account…). Memory stays bounded: windows that ended are dropped whenever the table grows.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>()

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a hit; answers 0 when allowed, else the whole seconds until the window ends (≥ 1). */
  hit(key: string): number {
    const t = this.now()
    let w = this.windows.get(key)
    if (!w || t - w.start >= this.windowMs) {
      if (this.windows.size > 10_000) this.prune(t)
      w = { start: t, count: 0 }
      this.windows.set(key, w)
    }
    w.count++
    if (w.count <= this.limit) return 0
    return Math.max(1, Math.ceil((w.start + this.windowMs - t) / 1000))
  }

  private prune(t: number): void {
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k)
  }
}
