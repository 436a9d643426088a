/**
 * The browser's answer buckets meet the server's (docs/decisions/0220): answers a step posted
 * without JavaScript are fetched before the funnel starts (the server left a `fw_posted` cookie), and
 * every answer the browser stores is sent to the server, so a visitor can move between the two paths.
 */
import { ANONYMOUS_ID_COOKIE, ANSWER_SYNC_WAIT_MS, ANSWERS_POSTED_COOKIE } from '../../engine/constants'
import { BUCKET_KEY_PREFIX, type BucketStorage } from '../../engine/funnel/buckets'
import type { FormValues } from '../../engine/runtime-contracts'

export const SYNC_PATH = '/api/funnel/answers'

/** A cookie the page may read; null when absent. */
export function readCookie(name: string): string | null {
  try {
    for (const part of document.cookie.split(';')) {
      const eq = part.indexOf('=')
      if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim())
    }
  } catch {}
  return null
}

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

export interface AnswerSync {
  /** The buckets: local ones, each write also sent to the server. */
  buckets: BucketStorage
  /** Settles once the server's answers are in the local buckets (or after ANSWER_SYNC_WAIT_MS). */
  ready: Promise<void>
}

/**
 * `local` is localStorage; `anonymousId` the tracker's (null without tracking: nothing is synced);
 * `onServerAnswers` hears of answers that came from the server (the phone lease's payload).
 */
export function startAnswerSync(
  local: BucketStorage,
  anonymousId: string | null,
  onServerAnswers: (shared: FormValues) => void,
  funnelPage: boolean,
): AnswerSync {
  if (!anonymousId) return { buckets: local, ready: Promise.resolve() }
  const posted = readCookie(ANSWERS_POSTED_COOKIE) !== null
  // A page sends its buckets when the server has answers it lacks, or on a funnel page the server
  // does not know this browser's id yet (the first claim).
  const needed = posted || (funnelPage && readCookie(ANONYMOUS_ID_COOKIE) !== anonymousId)
  const sync = needed
    ? post(anonymousId, Object.fromEntries(localBucketKeys().map((k) => [k, local.read(k)])), false)
        .then((server) => {
          if (!server) return
          for (const [key, values] of Object.entries(server)) local.write(key, values)
          const shared = Object.keys(server).find((k) => k.endsWith(':shared'))
          if (shared) onServerAnswers(server[shared])
        })
        .catch(() => {})
    : Promise.resolve()
  const ready = posted
    ? Promise.race([sync, new Promise<void>((r) => setTimeout(r, ANSWER_SYNC_WAIT_MS))])
    : Promise.resolve()
  return {
    ready,
    buckets: {
      read: local.read,
      write(key, values) {
        const before = local.read(key)
        local.write(key, values)
        const changed = Object.fromEntries(
          Object.entries(values).filter(([k, v]) => before[k as keyof FormValues] !== v),
        )
        if (Object.keys(changed).length)
          void sync.then(() => post(anonymousId, { [key]: changed }, true)).catch(() => {})
      },
    },
  }
}
