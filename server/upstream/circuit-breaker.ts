/**
 * A circuit breaker for one upstream: after `failures` consecutive failures it opens and refuses
 * calls for `openMs`; then one trial call is let through (half-open) — success closes it, failure
 * opens it again.
 */
export class CircuitBreaker {
  private consecutiveFailures = 0
  private openedAt: number | null = null
  private trialInFlight = false

  constructor(
    private readonly failures: number,
    private readonly openMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.openedAt === null) return 'closed'
    return this.now() - this.openedAt >= this.openMs ? 'half-open' : 'open'
  }

  /** Whether a call may go out now; a half-open breaker lets exactly one through. */
  tryAcquire(): boolean {
    const s = this.state
    if (s === 'closed') return true
    if (s === 'open' || this.trialInFlight) return false
    this.trialInFlight = true
    return true
  }

  success(): void {
    this.consecutiveFailures = 0
    this.openedAt = null
    this.trialInFlight = false
  }

  failure(): void {
    this.trialInFlight = false
    this.consecutiveFailures++
    if (this.openedAt !== null || this.consecutiveFailures >= this.failures) this.openedAt = this.now()
  }

  /** A call that ended without telling anything about the upstream's health (e.g. a 4xx). */
  neutral(): void {
    this.trialInFlight = false
  }
}
