import { assign, fromPromise } from 'xstate'
import type { VisitorRecord } from '../../schemas/generated/visitor-record'
import { VISITOR_SYNC_RETRY_MS } from '../constants'
import { setup } from '../util/machine-setup'

export interface VisitorSyncContext {
  record: VisitorRecord | null
  /** Counts local changes; `sentVersion` is the last one the server acknowledged. */
  version: number
  sentVersion: number
  inFlightVersion: number
  failures: number
}

export type VisitorSyncEvent =
  /** This tab changed the record: store, broadcast, send. */
  | { type: 'CHANGE'; record: VisitorRecord }
  /** Another tab's change arrived over the channel: adopt it when it is newer. */
  | { type: 'REMOTE'; record: VisitorRecord }

function isNewer(incoming: VisitorRecord, current: VisitorRecord | null): boolean {
  return !current || incoming.updatedAt >= current.updatedAt
}

/**
 * Visitor record sync (spec points 4 and 7). Local changes are POSTed to /api/user/set (the
 * `postRecord` actor) and broadcast to other tabs (the `broadcast` action, over the `user-sync`
 * channel); other tabs' changes are adopted when newer. A failed POST waits VISITOR_SYNC_RETRY_MS and
 * retries; a newer change during the wait is sent at once instead, and only the newest record is ever
 * sent. Effects are injected with `.provide()`: the machine does no I/O itself.
 */
export const visitorSyncMachine = setup({
  types: {
    context: {} as VisitorSyncContext,
    events: {} as VisitorSyncEvent,
    input: {} as { record: VisitorRecord | null },
  },
  actors: {
    postRecord: fromPromise<unknown, { record: VisitorRecord }>(async () => {
      throw new Error('visitorSyncMachine: provide the postRecord actor')
    }),
  },
  actions: {
    broadcast: (_, _params: { record: VisitorRecord }) => {},
    recordChanged: (_, _params: { record: VisitorRecord; source: 'local' | 'remote' }) => {},
  },
  delays: { retryDelay: VISITOR_SYNC_RETRY_MS },
  guards: {
    unsentChange: ({ context }) => context.version > context.inFlightVersion,
    remoteIsNewer: ({ context, event }) => event.type === 'REMOTE' && isNewer(event.record, context.record),
  },
}).createMachine({
  id: 'visitorSync',
  context: ({ input }) => ({
    record: input.record,
    version: 0,
    sentVersion: 0,
    inFlightVersion: 0,
    failures: 0,
  }),
  initial: 'idle',
  on: {
    // A local change: keep it, tell the page, tell the other tabs; idle and waiting then send it.
    CHANGE: {
      actions: [
        assign(({ context, event }) => ({ record: event.record, version: context.version + 1 })),
        {
          type: 'recordChanged',
          params: ({ event }) => ({ record: event.record, source: 'local' as const }),
        },
        { type: 'broadcast', params: ({ event }) => ({ record: event.record }) },
      ],
    },
    REMOTE: {
      guard: 'remoteIsNewer',
      // The other tab sends its own change; ours is superseded, so nothing is left to send.
      actions: [
        assign(({ context, event }) => ({
          record: event.record,
          sentVersion: context.version,
          inFlightVersion: context.version,
        })),
        {
          type: 'recordChanged',
          params: ({ event }) => ({ record: event.record, source: 'remote' as const }),
        },
      ],
      target: '.idle',
    },
  },
  states: {
    idle: {
      always: { guard: 'unsentChange', target: 'sending' },
    },
    sending: {
      entry: assign(({ context }) => ({ inFlightVersion: context.version })),
      invoke: {
        src: 'postRecord',
        input: ({ context }) => ({ record: context.record! }),
        onDone: [
          {
            guard: 'unsentChange',
            target: 'sending',
            reenter: true,
            actions: assign(({ context }) => ({ sentVersion: context.inFlightVersion, failures: 0 })),
          },
          {
            target: 'idle',
            actions: assign(({ context }) => ({ sentVersion: context.inFlightVersion, failures: 0 })),
          },
        ],
        onError: {
          target: 'waiting',
          actions: assign(({ context }) => ({ failures: context.failures + 1 })),
        },
      },
    },
    waiting: {
      after: { retryDelay: 'sending' },
      always: { guard: 'unsentChange', target: 'sending' },
    },
  },
})
