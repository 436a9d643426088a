/**
 * The answer buckets of visitors who post funnel steps as plain forms (docs/decisions/0216): the same
 * keys and merge rules as the browser's localStorage buckets (engine/funnel/buckets.ts), one row per
 * (anonymous id, bucket key) in funnel_answers (migration 0013).
 */
import { FUNNEL_ANSWERS_TTL_MS } from '../../engine/constants'
import type { BucketStorage } from '../../engine/funnel/buckets'
import type { FormValues } from '../../engine/runtime-contracts'
import type { Queryable } from './db'

/** A visitor's buckets read once, changed in memory by the machine, then saved with `save`. */
export interface LoadedBuckets extends BucketStorage {
  /** Writes the buckets the machine changed. */
  save(db: Queryable): Promise<void>
}

export async function loadBuckets(
  db: Queryable,
  anonymousId: string,
  now = Date.now(),
): Promise<LoadedBuckets> {
  const r = await db.query<{ bucket: string; answers: FormValues }>(
    'SELECT bucket, answers FROM funnel_answers WHERE anonymous_id = $1 AND updated_at > $2',
    [anonymousId, new Date(now - FUNNEL_ANSWERS_TTL_MS).toISOString()],
  )
  const buckets = new Map(r.rows.map((row) => [row.bucket, row.answers]))
  const changed = new Set<string>()
  return {
    read: (key) => ({ ...(buckets.get(key) ?? {}) }),
    write: (key, values) => {
      buckets.set(key, { ...values })
      changed.add(key)
    },
    async save(to) {
      for (const key of changed)
        await to.query(
          `INSERT INTO funnel_answers (anonymous_id, bucket, answers, updated_at) VALUES ($1, $2, $3::jsonb, now())
           ON CONFLICT (anonymous_id, bucket) DO UPDATE SET answers = excluded.answers, updated_at = now()`,
          [anonymousId, key, JSON.stringify(buckets.get(key))],
        )
      changed.clear()
    },
  }
}

/** Whether a key may use an anonymous id's answers: listed for it, nobody's yet, or another browser's. */
export type AnswerKeyStatus = 'owned' | 'free' | 'taken'

/** How `keySha256` stands for `anonymousId` (docs/decisions/0220); keys older than the TTL are forgotten. */
export async function answerKeyStatus(
  db: Queryable,
  anonymousId: string,
  keySha256: string | null,
  now = Date.now(),
): Promise<AnswerKeyStatus> {
  const r = await db.query<{ key_sha256: string }>(
    'SELECT key_sha256 FROM funnel_answer_keys WHERE anonymous_id = $1 AND created_at > $2',
    [anonymousId, new Date(now - FUNNEL_ANSWERS_TTL_MS).toISOString()],
  )
  if (r.rows.length === 0) return 'free'
  return keySha256 && r.rows.some((row) => row.key_sha256 === keySha256) ? 'owned' : 'taken'
}

/**
 * Lists a key for an anonymous id (a first claim, or another device through a resume link: then
 * `contactHidden`, so that browser gets no contact details until it posts a step; migration 0019).
 */
export async function addAnswerKey(
  db: Queryable,
  anonymousId: string,
  keySha256: string,
  contactHidden = false,
): Promise<void> {
  await db.query(
    `INSERT INTO funnel_answer_keys (anonymous_id, key_sha256, contact_hidden) VALUES ($1, $2, $3)
     ON CONFLICT (anonymous_id, key_sha256) DO UPDATE SET created_at = now(), contact_hidden = excluded.contact_hidden`,
    [anonymousId, keySha256, contactHidden],
  )
}

/** Whether the browser holding this key must not be given the id's contact details (0232). */
export async function contactHidden(db: Queryable, anonymousId: string, keySha256: string): Promise<boolean> {
  const r = await db.query<{ contact_hidden: boolean }>(
    'SELECT contact_hidden FROM funnel_answer_keys WHERE anonymous_id = $1 AND key_sha256 = $2',
    [anonymousId, keySha256],
  )
  return r.rows[0]?.contact_hidden === true
}

/** The browser holding this key has continued the funnel itself: its contact details are its own again. */
export async function showContact(db: Queryable, anonymousId: string, keySha256: string): Promise<void> {
  await db.query(
    'UPDATE funnel_answer_keys SET contact_hidden = false WHERE anonymous_id = $1 AND key_sha256 = $2 AND contact_hidden',
    [anonymousId, keySha256],
  )
}

/** Ends every resume link of an anonymous id made until now (its funnel completed, or it started over). */
export async function endResumeLinks(db: Queryable, anonymousId: string, at = new Date()): Promise<void> {
  await db.query(
    `INSERT INTO funnel_resume_ends (anonymous_id, ended_at) VALUES ($1, $2)
     ON CONFLICT (anonymous_id) DO UPDATE SET ended_at = GREATEST(funnel_resume_ends.ended_at, excluded.ended_at)`,
    [anonymousId, at.toISOString()],
  )
}

/** When the resume links of an anonymous id last ended (epoch ms), or null. */
export async function resumeLinksEndedAt(db: Queryable, anonymousId: string): Promise<number | null> {
  const r = await db.query<{ ended_at: Date | string }>(
    'SELECT ended_at FROM funnel_resume_ends WHERE anonymous_id = $1',
    [anonymousId],
  )
  return r.rows[0] ? new Date(r.rows[0].ended_at).getTime() : null
}

/** Every bucket kept under an anonymous id (within the TTL), by bucket key. */
export async function allBuckets(
  db: Queryable,
  anonymousId: string,
  now = Date.now(),
): Promise<Record<string, FormValues>> {
  const r = await db.query<{ bucket: string; answers: FormValues }>(
    'SELECT bucket, answers FROM funnel_answers WHERE anonymous_id = $1 AND updated_at > $2',
    [anonymousId, new Date(now - FUNNEL_ANSWERS_TTL_MS).toISOString()],
  )
  return Object.fromEntries(r.rows.map((row) => [row.bucket, row.answers]))
}
