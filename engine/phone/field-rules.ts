/**
 * Spec point 5: each optional field of the leased-phone request is sent only when valid. Every
 * function answers the value to send, or undefined to leave the field out.
 */
import type { Flag } from '../../schemas/generated/api-marketplace'
import { PHONE_INPUT_PATTERN, VEHICLE_AMOUNT_MAX } from '../constants'
import { addressLengthOk, EMAIL_PATTERN, nameLengthOk, ZIP_PATTERN } from '../validation/text-rules'

type Value = string | boolean | undefined

const text = (v: Value): string | undefined => (typeof v === 'string' ? v.trim() : undefined)

function validName(v: Value): string | undefined {
  const t = text(v)
  return t !== undefined && nameLengthOk(t) ? t : undefined
}

/** First and last name, each 3–64 characters, joined by a space. */
export function contactOf(firstName: Value, lastName: Value): string | undefined {
  const first = validName(firstName)
  const last = validName(lastName)
  return first && last ? `${first} ${last}` : undefined
}

export function emailOf(v: Value): string | undefined {
  const t = text(v)
  return t && t.length <= 254 && EMAIL_PATTERN.test(t) ? t : undefined
}

/** Phone typed as (###) ###-####. */
export function phoneOf(v: Value): string | undefined {
  const t = text(v)
  return t && PHONE_INPUT_PATTERN.test(t) ? t : undefined
}

/** Address 1–128 characters after trimming. */
export function addressOf(v: Value): string | undefined {
  const t = text(v)
  return t !== undefined && addressLengthOk(t) ? t : undefined
}

export function fiveDigitZip(v: Value | null): string | undefined {
  const t = typeof v === 'string' ? v.trim() : undefined
  return t && ZIP_PATTERN.test(t) ? t : undefined
}

/** Booleans map to 1 or 0; anything else is left out. */
export function flagOf(v: Value): Flag | undefined {
  return v === true ? 1 : v === false ? 0 : undefined
}

const CREDIT = { excellent: 'Excellent', good: 'Good', average: 'Average', poor: 'Poor' } as const
export type CreditRating = (typeof CREDIT)[keyof typeof CREDIT]
/** excellent → Excellent, …; an unknown rating is left out. */
export function creditRatingOf(v: Value): CreditRating | undefined {
  const t = text(v)?.toLowerCase()
  return t && t in CREDIT ? CREDIT[t as keyof typeof CREDIT] : undefined
}

/** vehicleAmount parsed as an integer, 1 when missing or not a positive number, at most 10. */
export function vehicleCountOf(v: Value): number {
  const t = text(v)
  const n = t && /^\d+$/.test(t) ? Number.parseInt(t, 10) : Number.NaN
  if (!Number.isFinite(n) || n < 1) return 1
  return Math.min(n, VEHICLE_AMOUNT_MAX)
}

/** The insurer; `other` means unknown and is left out like an empty value. */
export function currentCompanyOf(v: Value): string | undefined {
  const t = text(v)
  return t && t.toLowerCase() !== 'other' && t.length <= 128 ? t : undefined
}

export function vehicleMakeOf(v: Value): string | undefined {
  const t = text(v)
  return t && t.length <= 64 ? t : undefined
}
