/**
 * The one place a signed token is made and checked (resume links, preview grants): `<payload>.<mac>`,
 * the MAC HMAC-SHA-256 over `<label>.<payload>` in base64url without padding (docs/decisions/0213).
 *
 * Exactly one spelling of a signature is accepted: the check compares the given text with the
 * canonical encoding of the expected MAC, character for character. Comparing decoded bytes would
 * also accept other spellings — base64url's last character of a 32-byte MAC carries 2 unused bits, so
 * four characters decode to the same bytes — and a "tampered" link would still verify. (UTF-8, an
 * injective encoding, turns the texts into bytes: no other text gives the same bytes.)
 */
import { createHmac, timingSafeEqual } from 'node:crypto'

/** Longest token ever checked; anything longer is refused before any work. */
export const SIGNED_TOKEN_MAX_LENGTH = 1024

export function signedToken(secret: string, label: string, payload: string): string {
  return `${payload}.${mac(secret, label, payload)}`
}

/** The payload of a token signed with `secret` under `label`, or null for anything else. Never throws. */
export function verifiedPayload(
  secret: string,
  label: string,
  token: string | null | undefined,
): string | null {
  if (typeof token !== 'string' || token.length > SIGNED_TOKEN_MAX_LENGTH) return null
  const dot = token.indexOf('.')
  if (dot < 1) return null
  const payload = token.slice(0, dot)
  const given = Buffer.from(token.slice(dot + 1), 'utf8')
  const expected = Buffer.from(mac(secret, label, payload), 'utf8')
  return given.length === expected.length && timingSafeEqual(given, expected) ? payload : null
}

function mac(secret: string, label: string, payload: string): string {
  return createHmac('sha256', secret).update(`${label}.${payload}`).digest('base64url')
}
