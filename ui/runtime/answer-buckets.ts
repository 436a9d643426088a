/**
 * The client runtime's answer buckets (docs/decisions/0220): localStorage, each write also sent to the
 * server, and — when the server kept answers the browser has not seen (the `fw_posted` cookie) — those
 * fetched first. The sync code (answer-sync.ts) is loaded only when there is something to send or fetch.
 */
import { ANSWER_SYNC_WAIT_MS, ANSWERS_POSTED_COOKIE } from '../../engine/constants'
import type { BucketStorage } from '../../engine/funnel/buckets'
import type { FormValues } from '../../engine/runtime-contracts'
import { readCookie } from './cookies'

/**
 * `local` is localStorage; `anonymousId` the tracker's (null without tracking: nothing is synced);
 * `onServerAnswers` hears of the shared answers that came from the server (the phone lease's payload).
 * `ready` settles once the server's answers are in the local buckets (or after ANSWER_SYNC_WAIT_MS).
 */
export function startAnswerBuckets(
  local: BucketStorage,
  anonymousId: string | null,
  onServerAnswers: (shared: FormValues) => void,
): { buckets: BucketStorage; ready: Promise<unknown> } {
  if (!anonymousId) return { buckets: local, ready: Promise.resolve() }
  const sync = () => import('./answer-sync')
  const pulled =
    readCookie(ANSWERS_POSTED_COOKIE) !== null
      ? sync()
          .then((m) => m.pullAnswers(local, anonymousId))
          .then((shared) => shared && onServerAnswers(shared))
          .catch(() => {})
      : Promise.resolve()
  // One request at a time, after the pull: the first one claims the id and sets the key cookie the
  // next ones need; the bucket then holds the server's answers too, and this write's are newer.
  let sent: Promise<unknown> = pulled
  return {
    ready: Promise.race([pulled, new Promise((r) => setTimeout(r, ANSWER_SYNC_WAIT_MS))]),
    buckets: {
      read: local.read,
      write(key, values) {
        local.write(key, values)
        sent = sent
          .then(sync)
          .then((m) => m.pushAnswers(anonymousId, key, values))
          .catch(() => {})
      },
    },
  }
}
