/**
 * Staff sign-in throttling (docs/decisions/0702), in memory per server process:
 * - per account (e-mail, known or not, so answers do not tell which exist): STAFF_SIGN_IN_FREE_FAILURES
 *   failures are free, then each try must wait STAFF_SIGN_IN_BACKOFF_BASE_MS, doubled per further
 *   failure, up to STAFF_SIGN_IN_BACKOFF_MAX_MS; at STAFF_SIGN_IN_LOCKOUT_FAILURES the caller locks
 *   the account in the store (an admin lifts it) and the count starts again;
 * - per IP: STAFF_SIGN_IN_IP_FAILURES failures per STAFF_SIGN_IN_IP_WINDOW_MS, whatever the account;
 * - one try per account at a time: a person never checks two passwords for one account at once, and
 *   a burst of guesses for one account must not spend the hash budget (PasswordHasher) of everyone.
 * A try that must wait costs no password hash.
 */
import {
  STAFF_SIGN_IN_BACKOFF_BASE_MS,
  STAFF_SIGN_IN_BACKOFF_MAX_MS,
  STAFF_SIGN_IN_FREE_FAILURES,
  STAFF_SIGN_IN_IP_FAILURES,
  STAFF_SIGN_IN_IP_WINDOW_MS,
  STAFF_SIGN_IN_LOCKOUT_FAILURES,
} from '../../engine/constants'

interface AccountState {
  failures: number
  lastFailureAt: number
}

const MAX_TRACKED = 10_000

export class SignInThrottle {
  private readonly accounts = new Map<string, AccountState>()
  private readonly ips = new Map<string, { start: number; failures: number }>()
  private readonly checking = new Set<string>()

  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds this try must still wait (0: go ahead and check the password). */
  wait(account: string, ip: string): number {
    const t = this.now()
    const a = this.accounts.get(account)
    let wait = 0
    if (a && a.failures >= STAFF_SIGN_IN_FREE_FAILURES) wait = a.lastFailureAt + backoffMs(a.failures) - t
    const w = this.ips.get(ip)
    if (w && t - w.start < STAFF_SIGN_IN_IP_WINDOW_MS && w.failures >= STAFF_SIGN_IN_IP_FAILURES)
      wait = Math.max(wait, w.start + STAFF_SIGN_IN_IP_WINDOW_MS - t)
    return Math.max(0, wait)
  }

  /** Counts a failed try; answers true when the account has now earned a lockout. */
  failure(account: string, ip: string): boolean {
    const t = this.now()
    if (this.accounts.size > MAX_TRACKED) this.prune(t)
    const a = this.accounts.get(account) ?? { failures: 0, lastFailureAt: t }
    a.failures++
    a.lastFailureAt = t
    this.accounts.set(account, a)
    let w = this.ips.get(ip)
    if (!w || t - w.start >= STAFF_SIGN_IN_IP_WINDOW_MS) {
      w = { start: t, failures: 0 }
      this.ips.set(ip, w)
    }
    w.failures++
    if (a.failures >= STAFF_SIGN_IN_LOCKOUT_FAILURES) {
      this.accounts.delete(account)
      return true
    }
    return false
  }

  /** Marks a try for the account as being checked; false when one already is (the caller answers 429). */
  begin(account: string): boolean {
    if (this.checking.has(account)) return false
    this.checking.add(account)
    return true
  }

  /** The account's try is answered (call after begin() answered true, whatever the outcome). */
  end(account: string): void {
    this.checking.delete(account)
  }

  /** A successful sign-in clears the account's failures (not the IP's). */
  success(account: string): void {
    this.accounts.delete(account)
  }

  private prune(t: number): void {
    for (const [k, a] of this.accounts)
      if (t - a.lastFailureAt > STAFF_SIGN_IN_BACKOFF_MAX_MS) this.accounts.delete(k)
    for (const [k, w] of this.ips) if (t - w.start >= STAFF_SIGN_IN_IP_WINDOW_MS) this.ips.delete(k)
  }
}

/** The wait after `failures` failures (only asked once they are past the free ones). */
export function backoffMs(failures: number): number {
  const doublings = Math.max(0, failures - STAFF_SIGN_IN_FREE_FAILURES)
  return Math.min(STAFF_SIGN_IN_BACKOFF_MAX_MS, STAFF_SIGN_IN_BACKOFF_BASE_MS * 2 ** Math.min(doublings, 30))
}
