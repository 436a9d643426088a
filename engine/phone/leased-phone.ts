import { phoneDigits } from './phone-format'

/** A number leased from the ad marketplace (spec point 3): value and when the lease ends. */
export interface LeasedPhone {
  value: string
  /** Epoch milliseconds. */
  expiresAt: number
}

/** Reads the marketplace answer `{ value, expirationDate }`; anything unusable gives null. */
export function parseLeasedPhone(answer: unknown): LeasedPhone | null {
  if (!answer || typeof answer !== 'object') return null
  const { value, expirationDate } = answer as Record<string, unknown>
  if (typeof value !== 'string' || typeof expirationDate !== 'string') return null
  const digits = phoneDigits(value)
  const expiresAt = Date.parse(expirationDate)
  if (!/^1[2-9]\d{9}$/.test(digits) || Number.isNaN(expiresAt)) return null
  return { value: digits, expiresAt }
}

/** The number to show: the leased one while it has not expired, otherwise the rule's default. */
export function displayedNumber(
  leased: LeasedPhone | null,
  defaultNumber: string | null,
  now: number,
): string | null {
  if (leased && leased.expiresAt > now) return leased.value
  return defaultNumber
}
