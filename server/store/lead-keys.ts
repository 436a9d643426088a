/**
 * How a person is named when they ask for their data (docs/decisions/0811): an e-mail address, a phone
 * number or an id; and the erasures that covered a key, found by the key's SHA-256.
 */
import { createHash } from 'node:crypto'
import type { Queryable } from './db'

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** A phone number as its ten digits (a leading country code 1 dropped); null when it is not one. */
export function phoneDigits(key: string): string | null {
  const digits = key.replace(/\D/g, '')
  const ten = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits
  return ten.length === 10 && /^[\d\s()+.-]+$/.test(key.trim()) ? ten : null
}

/** How a key is remembered by an erasure: an e-mail in lower case, a phone as its ten digits, an id as is. */
export function erasureKeyHash(key: string): string {
  const k = key.trim()
  const normal = EMAIL.test(k)
    ? `email:${k.toLowerCase()}`
    : phoneDigits(k)
      ? `phone:${phoneDigits(k)}`
      : `id:${k}`
  return createHash('sha256').update(`fw-erasure.${normal}`).digest('hex')
}

/** The erasure that covered a key, if any. */
export async function erasureOf(db: Queryable, key: string): Promise<{ id: string; at: string } | null> {
  const r = await db.query<{ id: string; at: unknown }>(
    'SELECT id, at FROM lead_erasures WHERE key_hashes @> ARRAY[$1]::text[] ORDER BY at DESC LIMIT 1',
    [erasureKeyHash(key)],
  )
  return r.rows[0]
    ? {
        id: r.rows[0].id,
        at: String(r.rows[0].at instanceof Date ? r.rows[0].at.toISOString() : r.rows[0].at),
      }
    : null
}
