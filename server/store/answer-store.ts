/**
 * The answer buckets of visitors who post funnel steps as plain forms (docs/decisions/0216): the same
 * keys and merge rules as the browser's localStorage buckets (engine/funnel/buckets.ts), one row per
 * (anonymous id, bucket key) in funnel_answers (migration 0013). One visitor keeps at most
 * ANSWERS_MAX_BUCKETS_PER_VISITOR buckets and ANSWERS_MAX_BYTES_PER_VISITOR bytes; answers are deleted
 * ANSWERS_RETENTION_DAYS after their last change (docs/decisions/0810).
 */
import {
  ANSWERS_MAX_BUCKETS_PER_VISITOR,
  ANSWERS_MAX_BYTES_PER_VISITOR,
  FUNNEL_ANSWERS_TTL_MS,
} from '../../engine/constants'
import type { BucketStorage } from '../../engine/funnel/buckets'
import type { FormValues } from '../../engine/runtime-contracts'
import { audit } from './auth-store'
import type { Queryable } from './db'

const DAY_MS = 24 * 60 * 60_000

/** A save that would keep more than a visitor's caps; nothing of it was written. Answers 413. */
export class AnswerCapError extends Error {
  readonly status = 413
  readonly expose = true
}

/** Bytes a bucket takes as stored (its JSON text, UTF-8). */
const bucketBytes = (values: FormValues) => Buffer.byteLength(JSON.stringify(values))

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
      if (!changed.size) return
      if (buckets.size > ANSWERS_MAX_BUCKETS_PER_VISITOR)
        throw new AnswerCapError(
          `answers: at most ${ANSWERS_MAX_BUCKETS_PER_VISITOR} answer buckets are kept for one visitor`,
        )
      let bytes = 0
      for (const values of buckets.values()) bytes += bucketBytes(values)
      if (bytes > ANSWERS_MAX_BYTES_PER_VISITOR)
        throw new AnswerCapError(
          `answers: at most ${ANSWERS_MAX_BYTES_PER_VISITOR / 1024} KB of answers are kept for one visitor`,
        )
      // Rows past the lifetime are not read (above) and not counted: they go now, not at the next sweep.
      await to.query('DELETE FROM funnel_answers WHERE anonymous_id = $1 AND updated_at <= $2', [
        anonymousId,
        new Date(now - FUNNEL_ANSWERS_TTL_MS).toISOString(),
      ])
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
 * Renews a listed key's lifetime (its `created_at`): a visitor who keeps answering keeps their key for
 * FUNNEL_ANSWERS_TTL_MS after their last claim, as their answers are kept after their last change.
 */
export async function renewAnswerKey(db: Queryable, anonymousId: string, keySha256: string): Promise<void> {
  await db.query(
    'UPDATE funnel_answer_keys SET created_at = now() WHERE anonymous_id = $1 AND key_sha256 = $2',
    [anonymousId, keySha256],
  )
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

/** What the answers' retention removed in one run. */
export interface AnswersPurged {
  answers: number
  keys: number
  cutoff: string
}

/**
 * Retention (docs/decisions/0810): deletes every answer bucket unchanged for `days` days before `now`,
 * and the answer keys listed that long ago whose id has no answers left. A run that deleted anything writes one audit entry with
 * the counts (never the answers).
 */
export async function purgeExpiredAnswers(
  db: Queryable,
  days: number,
  now = Date.now(),
): Promise<AnswersPurged> {
  const cutoff = new Date(now - days * DAY_MS).toISOString()
  const answers = await db.query<{ n: number }>(
    'WITH d AS (DELETE FROM funnel_answers WHERE updated_at <= $1 RETURNING 1) SELECT count(*)::int AS n FROM d',
    [cutoff],
  )
  const keys = await db.query<{ n: number }>(
    // A key goes only with its answers: an id whose answers remain keeps its owner (else it would be free to claim).
    `WITH d AS (
       DELETE FROM funnel_answer_keys k WHERE created_at <= $1
         AND NOT EXISTS (SELECT 1 FROM funnel_answers a WHERE a.anonymous_id = k.anonymous_id)
       RETURNING 1
     ) SELECT count(*)::int AS n FROM d`,
    [cutoff],
  )
  const purged = { answers: answers.rows[0]?.n ?? 0, keys: keys.rows[0]?.n ?? 0, cutoff }
  if (purged.answers || purged.keys)
    await audit(db, {
      actor: null,
      action: 'answers.retention.delete',
      target: 'funnel_answers',
      details: { ...purged, retentionDays: days },
    })
  return purged
}
