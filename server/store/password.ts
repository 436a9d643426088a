import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import {
  PASSWORD_HASH_BURST_MS,
  PASSWORD_HASH_CHARGE_MAX_FACTOR,
  PASSWORD_HASH_CONCURRENCY,
  PASSWORD_HASH_CPU_SHARE,
  PASSWORD_HASH_ESTIMATE_MS,
  PASSWORD_HASH_QUEUE_MAX,
} from '../../engine/constants'

const N = 16_384
const R = 8
const P = 1
const KEY_LENGTH = 32

/** Thrown when a password may not be checked now; the caller answers 429 with Retry-After. */
export class PasswordHashBusyError extends Error {
  constructor(readonly retryAfterMs: number) {
    super('too many sign-ins are being checked right now; try again in a moment')
  }
}

export interface PasswordHasherOptions {
  /**
   * Share of one core's time that checking passwords may use (PASSWORD_HASH_CPU_SHARE); null for no
   * budget (commands and tests that check a password outside the server).
   */
  share?: number | null
  /** Hash time the bucket holds when full (PASSWORD_HASH_BURST_MS). */
  burstMs?: number
  /** The bucket's clock (tests pass their own). */
  now?: () => number
}

/**
 * Checks passwords without letting guessers take the cores that render pages (docs/decisions/0702):
 * - a hash-time budget, a token bucket of milliseconds refilled at `share` ms per ms: each check
 *   is charged the estimate (the fastest one measured, at most PASSWORD_HASH_ESTIMATE_MS) when it
 *   starts and the time it really took (capped) when it ends; a check the bucket cannot pay is
 *   refused at once, before any hashing;
 * - at most PASSWORD_HASH_CONCURRENCY hashes at once, up to PASSWORD_HASH_QUEUE_MAX waiting.
 * Creating a hash (a new user, an admin's command) is not charged, only capped.
 */
export class PasswordHasher {
  private readonly share: number | null
  private readonly burstMs: number
  private readonly now: () => number
  private level: number
  private filledAt: number
  /** What one check costs: the fastest one seen, at most PASSWORD_HASH_ESTIMATE_MS. */
  private estimateMs = PASSWORD_HASH_ESTIMATE_MS
  private running = 0
  private readonly waiting: (() => void)[] = []
  private started = 0
  private chargedMs = 0

  constructor(options: PasswordHasherOptions = {}) {
    this.share = options.share === undefined ? PASSWORD_HASH_CPU_SHARE : options.share
    this.burstMs = options.burstMs ?? PASSWORD_HASH_BURST_MS
    this.now = options.now ?? Date.now
    this.level = this.burstMs
    this.filledAt = this.now()
  }

  /** Milliseconds until the budget can pay for one check (0: now). Cheap: ask before any other work. */
  retryAfterMs(): number {
    if (this.share === null) return 0
    this.refill()
    return this.level >= this.estimateMs ? 0 : Math.ceil((this.estimateMs - this.level) / this.share)
  }

  /** `scrypt$N$r$p$salt$key` (base64url), so the cost can be raised later without breaking old hashes. */
  async hash(password: string): Promise<string> {
    const salt = randomBytes(16)
    const key = await this.gated(() => derive(password, salt, N, R, P))
    return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$')
  }

  /** Throws PasswordHashBusyError, without hashing, when the budget or the queue is spent. */
  async verify(password: string, stored: string): Promise<boolean> {
    const [scheme, n, r, p, salt, key] = stored.split('$')
    if (scheme !== 'scrypt' || !salt || !key) return false
    const wait = this.retryAfterMs()
    if (wait > 0) throw new PasswordHashBusyError(wait)
    const charged = this.estimateMs
    this.level -= charged
    this.chargedMs += charged
    let actual: Buffer
    try {
      actual = await this.gated(async () => {
        const t0 = performance.now()
        const k = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p))
        const took = performance.now() - t0
        // The check costs the time it held a core, measured as wall time: on a busy machine a hash
        // waits for a core, and that time is what pages lose, so it counts — up to
        // PASSWORD_HASH_CHARGE_MAX_FACTOR times the estimate, so one very slow check cannot lock
        // every sign-in out for long. The estimate is the fastest check seen (the nearest to its CPU
        // cost; a faster machine is allowed more checks).
        const extra = Math.min(took, PASSWORD_HASH_CHARGE_MAX_FACTOR * charged) - charged
        this.level -= extra
        this.chargedMs += extra
        this.estimateMs = Math.max(1, Math.min(this.estimateMs, took))
        return k
      })
    } catch (e) {
      if (e instanceof PasswordHashBusyError) {
        // Refused by the queue: nothing spent.
        this.level += charged
        this.chargedMs -= charged
      }
      throw e
    }
    const expected = Buffer.from(key, 'base64url')
    return actual.length === expected.length && timingSafeEqual(actual, expected)
  }

  /**
   * Hashes running and waiting now; hashes started and milliseconds charged to the budget since
   * creation (for tests and the bench).
   */
  load(): { running: number; waiting: number; started: number; chargedMs: number } {
    return {
      running: this.running,
      waiting: this.waiting.length,
      started: this.started,
      chargedMs: this.chargedMs,
    }
  }

  private refill(): void {
    const t = this.now()
    this.level = Math.min(this.burstMs, this.level + (t - this.filledAt) * (this.share ?? 0))
    this.filledAt = t
  }

  private async gated<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= PASSWORD_HASH_CONCURRENCY) {
      if (this.waiting.length >= PASSWORD_HASH_QUEUE_MAX)
        throw new PasswordHashBusyError(Math.ceil(this.estimateMs / (this.share ?? 1)))
      await new Promise<void>((resolve) => this.waiting.push(resolve))
    } else this.running++
    this.started++
    try {
      return await work()
    } finally {
      const next = this.waiting.shift()
      // The slot passes straight to the next in line; `running` stays as it is.
      if (next) next()
      else this.running--
    }
  }
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { N: n, r, p }, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

/**
 * The hasher of commands and of code that checks a password outside the server's sign-in (which
 * makes its own, with the budget): capped like every hasher, but without a budget.
 */
export const passwordHasher = new PasswordHasher({ share: null })

export const hashPassword = (password: string) => passwordHasher.hash(password)
export const verifyPassword = (password: string, stored: string) => passwordHasher.verify(password, stored)
