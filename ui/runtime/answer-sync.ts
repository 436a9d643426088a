/**
 * The browser's answer buckets meet the server's (docs/decisions/0220): answers a step posted
 * without JavaScript are fetched before the funnel starts (the server left a `fw_posted` cookie), and
 * every answer the browser stores is sent to the server, so a visitor can move between the two paths.
 * Loaded only when one of these happens (answer-buckets.ts): a first visit's page load needs none.
 */
import { BUCKET_KEY_PREFIX, type BucketStorage } from '../../engine/funnel/buckets'
import type { FormValues } from '../../engine/runtime-contracts'

export const SYNC_PATH = '/api/funnel/answers'

function localBucketKeys(): string[] {
  try {
    return Object.keys(window.localStorage).filter((k) => k.startsWith(BUCKET_KEY_PREFIX))
  } catch {
    return []
  }
}

type Buckets = Record<string, FormValues>

async function post(anonymousId: string, buckets: Buckets, overwrite: boolean): Promise<Buckets | null> {
  const res = await fetch(SYNC_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ anonymousId, buckets, overwrite }),
    keepalive: overwrite,
  })
  if (!res.ok) {
    await res.body?.cancel()
    return null
  }
  return ((await res.json()) as { buckets: Buckets }).buckets
}

/**
 * Sends the local buckets and writes back every bucket the server keeps for the id (a page load after
 * a posted step; the server's answers win). Resolves the shared bucket as the server has it, or null.
 */
export async function pullAnswers(local: BucketStorage, anonymousId: string): Promise<FormValues | null> {
  const server = await post(
    anonymousId,
    Object.fromEntries(localBucketKeys().map((k) => [k, local.read(k)])),
    false,
  )
  if (!server) return null
  for (const [key, values] of Object.entries(server)) local.write(key, values)
  return server[Object.keys(server).find((k) => k.endsWith(':shared')) ?? ''] ?? null
}

/** Sends a bucket the browser just stored (its answers win over the server's). */
export async function pushAnswers(anonymousId: string, key: string, values: FormValues): Promise<void> {
  await post(anonymousId, { [key]: values }, true)
}
