import { assign, fromPromise } from 'xstate'
import { setup } from '../../util/machine-setup'

/** Presence asks again this soon when it has no answer yet (then it follows the server's timing). */
export const CC_PRESENCE_RETRY_MS = 5_000

/** Someone else with the file open on the branch. */
export interface PresenceOther {
  id: string
  name: string
  since: string
}

/** The server's answer (server/api/control-center/presence.ts): who else, and its timing. */
export interface PresenceAnswer {
  others: PresenceOther[]
  heartbeatMs: number
  pollMs: number
}

export interface PresenceContext {
  others: PresenceOther[]
  /** The last check failed (the others shown are the last known). */
  failed: boolean
  /** The server's timing, from its first answer; until then CC_PRESENCE_RETRY_MS. */
  timing: { heartbeatMs: number; pollMs: number } | null
  /** When my last heartbeat was answered (0: beat at the next check). */
  lastBeat: number
  /** Whether the check in flight is a heartbeat. */
  beating: boolean
  now: () => number
}

export type PresenceEvent =
  /** The tab is in front again (or back from the back-forward cache): its timers may have slept, beat at once. */
  | { type: 'VISIBLE' }
  /** The page is going away (a link, a reload, the tab closing): say goodbye without waiting. */
  | { type: 'HIDDEN' }

const dueBeat = (c: PresenceContext) => !c.timing || c.now() - c.lastBeat >= c.timing.heartbeatMs

/**
 * "Dana is also editing this page" (CONTROL-CENTER §2.5 A, docs/decisions/0950): while an editor of a
 * file is open on a branch, it checks every `pollMs` (the server's) who else has the file open, and
 * each check at least `heartbeatMs` after the last heartbeat is a heartbeat (PUT) instead of a look
 * (GET). A failed check keeps the last known others, says so, and tries again at the same pace. The
 * check is the provided `check` actor and the goodbye the `leave` action: the machine does no I/O.
 */
export const presenceMachine = setup({
  types: {
    context: {} as PresenceContext,
    events: {} as PresenceEvent,
    input: {} as { now?: () => number } | undefined,
  },
  delays: {
    pace: ({ context }: { context: PresenceContext }) => context.timing?.pollMs ?? CC_PRESENCE_RETRY_MS,
  },
  actors: {
    check: fromPromise<PresenceAnswer, { beat: boolean }>(async () => {
      throw new Error('presenceMachine: provide the check actor')
    }),
  },
  actions: {
    leave: () => {},
  },
}).createMachine({
  id: 'presence',
  context: ({ input }: { input: { now?: () => number } | undefined }) => ({
    others: [],
    failed: false,
    timing: null,
    lastBeat: 0,
    beating: false,
    now: input?.now ?? (() => Date.now()),
  }),
  initial: 'checking',
  on: {
    VISIBLE: { target: '.checking', reenter: true, actions: assign({ lastBeat: 0 }) },
    HIDDEN: { actions: 'leave' },
  },
  states: {
    checking: {
      entry: assign({ beating: ({ context }) => dueBeat(context) }),
      invoke: {
        src: 'check',
        input: ({ context }: { context: PresenceContext }) => ({ beat: context.beating }),
        onDone: {
          target: 'waiting',
          actions: assign(({ context, event }) => ({
            others: event.output.others,
            timing: { heartbeatMs: event.output.heartbeatMs, pollMs: event.output.pollMs },
            failed: false,
            lastBeat: context.beating ? context.now() : context.lastBeat,
          })),
        },
        onError: { target: 'waiting', actions: assign({ failed: true }) },
      },
    },
    waiting: {
      after: { pace: 'checking' },
    },
  },
})
