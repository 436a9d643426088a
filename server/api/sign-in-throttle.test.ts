import { describe, expect, it } from 'vitest'
import {
  PASSWORD_HASH_CONCURRENCY,
  STAFF_SIGN_IN_BACKOFF_MAX_MS,
  STAFF_SIGN_IN_FREE_FAILURES,
  STAFF_SIGN_IN_IP_FAILURES,
  STAFF_SIGN_IN_LOCKOUT_FAILURES,
} from '../../engine/constants'
import { hashPassword, passwordHashLoad, verifyPassword } from '../store/password'
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
    const stored = await hashPassword('pw')
    let most = 0
    const all = Promise.all(Array.from({ length: 6 }, () => verifyPassword('guess', stored)))
    const timer = setInterval(() => {
      most = Math.max(most, passwordHashLoad().running)
    }, 1)
    expect(passwordHashLoad().waiting).toBe(6 - PASSWORD_HASH_CONCURRENCY)
    expect(await all).toEqual(Array(6).fill(false))
    clearInterval(timer)
    expect(most).toBe(PASSWORD_HASH_CONCURRENCY)
    expect(passwordHashLoad()).toEqual({ running: 0, waiting: 0 })
  })
})
