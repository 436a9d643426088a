/**
 * Spec point 5's rules for typed answers, shared by the funnel's field validation
 * (engine/funnel/validate-field.ts) and the leased-phone payload (engine/phone/field-rules.ts).
 * Each takes the trimmed text.
 */
import {
  ADDRESS_MAX_LENGTH,
  ADDRESS_MIN_LENGTH,
  NAME_MAX_LENGTH,
  NAME_MIN_LENGTH,
  ZIP_LENGTH,
} from '../constants'

/** One @, a dot in the domain, no spaces: what browsers' type=email accepts, plus a top-level domain. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

export const ZIP_PATTERN = new RegExp(`^\\d{${ZIP_LENGTH}}$`)

/** A first or last name: 3–64 characters. */
export const nameLengthOk = (t: string) => t.length >= NAME_MIN_LENGTH && t.length <= NAME_MAX_LENGTH

/** An address: 1–128 characters. */
export const addressLengthOk = (t: string) => t.length >= ADDRESS_MIN_LENGTH && t.length <= ADDRESS_MAX_LENGTH
