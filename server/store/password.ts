import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { PASSWORD_HASH_CONCURRENCY, PASSWORD_HASH_QUEUE_MAX } from '../../engine/constants'

const N = 16_384
const R = 8
const P = 1
const KEY_LENGTH = 32

/** Thrown when more hashes wait than PASSWORD_HASH_QUEUE_MAX: the caller answers 429/503. */
export class PasswordHashBusyError extends Error {
  constructor() {
    super('too many sign-ins are being checked right now; try again in a moment')
  }
}

/**
 * At most PASSWORD_HASH_CONCURRENCY hashes run at once: scrypt takes a core for tens of ms, and
 * guessers must not take the cores that render pages (docs/decisions/0702).
 */
let running = 0
const waiting: (() => void)[] = []

async function gated<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PASSWORD_HASH_CONCURRENCY) {
    if (waiting.length >= PASSWORD_HASH_QUEUE_MAX) throw new PasswordHashBusyError()
    await new Promise<void>((resolve) => waiting.push(resolve))
  } else running++
  try {
    return await work()
  } finally {
    const next = waiting.shift()
    // The slot passes straight to the next in line; `running` stays as it is.
    if (next) next()
    else running--
  }
}

function derive(password: string, salt: Buffer, n = N, r = R, p = P): Promise<Buffer> {
  return gated(
    () =>
      new Promise((resolve, reject) =>
        scrypt(password, salt, KEY_LENGTH, { N: n, r, p }, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  )
}

/** `scrypt$N$r$p$salt$key` (base64url), so the cost can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt)
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !key) return false
  const expected = Buffer.from(key, 'base64url')
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p))
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/** Hashes running and waiting now (for tests and the bench). */
export function passwordHashLoad(): { running: number; waiting: number } {
  return { running, waiting: waiting.length }
}
