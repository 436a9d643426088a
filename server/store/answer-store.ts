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
