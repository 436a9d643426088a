import { type Actor, createActor, fromPromise } from 'xstate'
import { VISITOR_SYNC_CHANNEL } from '../../../engine/constants'
import { visitorSyncMachine } from '../../../engine/visitor-sync/visitor-sync-machine'
import type { VisitorRecord } from '../../../schemas/generated/visitor-record'

/** The part of BroadcastChannel the sync uses (the browser's, or Node's in tests). */
export interface SyncChannel {
  postMessage(message: unknown): void
  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void
  close(): void
}

export interface VisitorSyncOptions {
  record: VisitorRecord | null
  /** POST /api/user/set; rejects on failure (the machine retries). */
  post(record: VisitorRecord): Promise<unknown>
  /** Every adopted record, local or from another tab. */
  onRecord(record: VisitorRecord, source: 'local' | 'remote'): void
  channel?: SyncChannel | null
}

export interface VisitorSync {
  actor: Actor<typeof visitorSyncMachine>
  /** This tab changed the record. */
  change(record: VisitorRecord): void
  current(): VisitorRecord | null
  stop(): void
}

interface SyncMessage {
  type: 'visitor-record'
  record: VisitorRecord
}

/** Runs the visitor-sync machine with the real effects: the server POST and the `user-sync` channel. */
export function startVisitorSync(opts: VisitorSyncOptions): VisitorSync {
  const channel = opts.channel === undefined ? openChannel() : opts.channel
  const actor = createActor(
    visitorSyncMachine.provide({
      actors: { postRecord: fromPromise(({ input }) => opts.post(input.record)) },
      actions: {
        broadcast: (_, { record }) =>
          channel?.postMessage({ type: 'visitor-record', record } satisfies SyncMessage),
        recordChanged: (_, { record, source }) => opts.onRecord(record, source),
      },
    }),
    { input: { record: opts.record } },
  )
  actor.start()
  channel?.addEventListener('message', (e) => {
    const m = e.data as SyncMessage | null
    if (m?.type === 'visitor-record' && m.record) actor.send({ type: 'REMOTE', record: m.record })
  })
  return {
    actor,
    change: (record) => actor.send({ type: 'CHANGE', record }),
    current: () => actor.getSnapshot().context.record,
    stop: () => {
      actor.stop()
      channel?.close()
    },
  }
}

function openChannel(): SyncChannel | null {
  try {
    return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(VISITOR_SYNC_CHANNEL)
  } catch {
    return null
  }
}

/** The browser's POST /api/user/set. */
export async function postVisitorRecord(record: VisitorRecord): Promise<void> {
  const r = await fetch('/api/user/set', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(record),
    credentials: 'same-origin',
  })
  // The answer's body is not needed; an unread body keeps the request open (the page never settles).
  await r.body?.cancel()
  if (!r.ok) throw new Error(`POST /api/user/set answered ${r.status}`)
}
