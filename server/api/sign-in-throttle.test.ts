import { scrypt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  PASSWORD_HASH_BURST_MS,
  PASSWORD_HASH_CHARGE_MAX_FACTOR,
  PASSWORD_HASH_CONCURRENCY,
  PASSWORD_HASH_CPU_SHARE,
  PASSWORD_HASH_ESTIMATE_MS,
  STAFF_SIGN_IN_BACKOFF_MAX_MS,
  STAFF_SIGN_IN_FREE_FAILURES,
  STAFF_SIGN_IN_IP_FAILURES,
  STAFF_SIGN_IN_LOCKOUT_FAILURES,
} from '../../engine/constants'
import { PasswordHashBusyError, PasswordHasher } from '../store/password'
import { backoffMs, SignInThrottle } from './sign-in-throttle'

describe('SignInThrottle', () => {
  it('free failures, then a doubling wait, then a lockout at the threshold', () => {
    let now = 0
    const t = new SignInThrottle(() => now)
    for (let i = 0; i < STAFF_SIGN_IN_FREE_FAILURES; i++) {
      expect(t.wait('a@x.io', `ip${i}`)).toBe(0)
      expect(t.failure('a@x.io', `ip${i}`)).toBe(false)
    }
    expect(t.wait('a@x.io', 'elsewhere')).toBe(backoffMs(STAFF_SIGN_IN_FREE_FAILURES))
    expect(t.wait('b@x.io', 'ip0')).toBe(0)
    let locked = false
    for (let f = STAFF_SIGN_IN_FREE_FAILURES; f < STAFF_SIGN_IN_LOCKOUT_FAILURES; f++) {
      now += backoffMs(f)
      expect(t.wait('a@x.io', `ip-${f}`)).toBe(0)
      locked = t.failure('a@x.io', `ip-${f}`)
    }
    expect(locked).toBe(true)
    expect(backoffMs(1000)).toBe(STAFF_SIGN_IN_BACKOFF_MAX_MS)
  })

  it('one IP guessing across many accounts waits for its window', () => {
    const t = new SignInThrottle(() => 0)
    for (let i = 0; i < STAFF_SIGN_IN_IP_FAILURES; i++) t.failure(`user${i}@x.io`, '203.0.113.1')
    expect(t.wait('fresh@x.io', '203.0.113.1')).toBeGreaterThan(0)
    expect(t.wait('fresh@x.io', '203.0.113.2')).toBe(0)
  })

  it('a success clears the account', () => {
    const t = new SignInThrottle(() => 0)
    for (let i = 0; i < STAFF_SIGN_IN_FREE_FAILURES; i++) t.failure('a@x.io', 'ip')
    t.success('a@x.io')
    expect(t.wait('a@x.io', 'ip')).toBe(0)
  })
})

describe('password hashing', () => {
  it(`runs at most ${PASSWORD_HASH_CONCURRENCY} hash at once; the rest wait in line`, async () => {
    const hasher = new PasswordHasher()
    const stored = await hasher.hash('pw')
    let most = 0
    const all = Promise.all(Array.from({ length: 6 }, () => hasher.verify('guess', stored)))
    const timer = setInterval(() => {
      most = Math.max(most, hasher.load().running)
    }, 1)
    expect(hasher.load().waiting).toBe(6 - PASSWORD_HASH_CONCURRENCY)
    expect(await all).toEqual(Array(6).fill(false))
    clearInterval(timer)
    expect(most).toBe(PASSWORD_HASH_CONCURRENCY)
    expect(hasher.load()).toMatchObject({ running: 0, waiting: 0, started: 7 })
  })

  it('200 checks arriving at once: only what the budget holds is hashed, the rest are refused before hashing', async () => {
    let now = 0
    const hasher = new PasswordHasher({ now: () => now })
    const stored = await hasher.hash('the real one')
    const before = hasher.load().started
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, () => hasher.verify('guess', stored)),
    )
    const admitted = Math.floor(PASSWORD_HASH_BURST_MS / PASSWORD_HASH_ESTIMATE_MS)
    expect(hasher.load().started - before).toBe(admitted)
    const refused = results.filter((r) => r.status === 'rejected')
    expect(refused).toHaveLength(200 - admitted)
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(PasswordHashBusyError)
      expect((r.reason as PasswordHashBusyError).retryAfterMs).toBeGreaterThan(0)
    }
    // What the bucket still holds once the real costs replace the estimates (the clock has not
    // moved, so it only empties); then even the right password is refused, and told how long to wait.
    for (let i = 0; hasher.retryAfterMs() === 0; i++) {
      expect(i).toBeLessThan(admitted)
      await hasher.verify('guess', stored)
    }
    const wait = hasher.retryAfterMs()
    expect(wait).toBeGreaterThan(0)
    await expect(hasher.verify('the real one', stored)).rejects.toBeInstanceOf(PasswordHashBusyError)
    now += wait
    await expect(hasher.verify('the real one', stored)).resolves.toBe(true)
  })

  it(`a sustained attack is charged at most ${PASSWORD_HASH_CPU_SHARE * 100} % of the time, after the burst`, async () => {
    // A cheap hash (N=2^10) and a small burst keep the test fast (and light on a shared machine); the
    // budget charges what each check took.
    const BURST_MS = 100
    let now = 0
    const hasher = new PasswordHasher({ now: () => now, burstMs: BURST_MS })
    const salt = Buffer.from('0123456789abcdef')
    const key = await new Promise<Buffer>((resolve, reject) =>
      scrypt('pw', salt, 32, { N: 1024, r: 8, p: 1 }, (e, k) => (e ? reject(e) : resolve(k))),
    )
    const stored = ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$')
    const simulatedMs = 2_000
    let refusals = 0
    for (; now < simulatedMs; now += 5) {
      // Ten guessers each try every 5 ms of the simulated clock.
      const tries = await Promise.allSettled(Array.from({ length: 10 }, () => hasher.verify('guess', stored)))
      refusals += tries.filter((t) => t.status === 'rejected').length
    }
    const { chargedMs, started } = hasher.load()
    expect(started).toBeGreaterThan(BURST_MS / PASSWORD_HASH_ESTIMATE_MS)
    expect(refusals).toBeGreaterThan(0)
    // Never more hash time than the burst and the refill over the attack.
    // The last check may overdraw by what it took beyond its estimate (at most the cap).
    expect(chargedMs).toBeLessThanOrEqual(
      BURST_MS +
        PASSWORD_HASH_CPU_SHARE * simulatedMs +
        PASSWORD_HASH_CHARGE_MAX_FACTOR * PASSWORD_HASH_ESTIMATE_MS,
    )
  })
})

describe('one check per account at a time', () => {
  it('a second try for an account being checked is refused; another account is not', () => {
    const t = new SignInThrottle(() => 0)
    expect(t.begin('a@x.io')).toBe(true)
    expect(t.begin('a@x.io')).toBe(false)
    expect(t.begin('b@x.io')).toBe(true)
    t.end('a@x.io')
    expect(t.begin('a@x.io')).toBe(true)
  })
})
