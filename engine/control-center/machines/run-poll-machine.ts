import { assign, fromPromise } from 'xstate'
import { setup } from '../../util/machine-setup'

/** How often a content-factory run that is not finished is read again (docs/decisions/0901: polling, not SSE). */
export const RUN_POLL_MS = 1_000
/** How often a runs list with a run in progress is read again. */
export const RUN_LIST_POLL_MS = 2_000
/** A failing read is tried again after the interval doubled per failure, up to this. */
export const POLL_BACKOFF_MAX_MS = 30_000

/** What a read answers: the data, and whether it may still change (a run in progress: read it again). */
export interface PollAnswer {
  data: unknown
  more: boolean
}

export interface PollInput {
  /** What the page already has (a run rendered by the server); none: read at once. */
  initial?: PollAnswer
  /** Whether the data may change before the first answer says (default true; a plain GET: false). */
  more?: boolean
  /** Between reads while `more` (RUN_POLL_MS unless given). */
  intervalMs?: number
}

export interface PollContext {
  data: unknown
  more: boolean
  /** The last read's failure, shown until a read succeeds. */
  error: string | null
  /** Reads failed in a row (the backoff grows with them). */
  failures: number
  intervalMs: number
}

export type PollEvent =
  /** Read now (a reload button, a newer revision): a read in flight is dropped for a new one. */
  | { type: 'REFRESH' }
  /** An action answered with the data (a cancelled run): take it as if read. */
  | { type: 'SET'; answer: PollAnswer }

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The wait before the next try after `failures` failed reads in a row. */
export const backoffMs = (intervalMs: number, failures: number) =>
  Math.min(intervalMs * 2 ** failures, POLL_BACKOFF_MAX_MS)

/**
 * A control-center read kept fresh (issue 28, "run polling"): a content-factory run read again every
 * second until it ends, the runs list while a run is in progress, and any screen's GET (useResource),
 * which "ends" at its first answer. A failed read keeps the last data, says why and is tried again
 * after a backoff (the interval doubled per failure, at most 30 s) while the data may still change;
 * a read that ended fails for good until REFRESH. The read is the provided `fetch` actor: the machine
 * does no I/O, and a REFRESH during a read drops the old answer.
 */
export const pollMachine = setup({
  types: {
    context: {} as PollContext,
    events: {} as PollEvent,
    input: {} as PollInput | undefined,
  },
  delays: {
    interval: ({ context }: { context: PollContext }) => context.intervalMs,
    backoff: ({ context }: { context: PollContext }) => backoffMs(context.intervalMs, context.failures),
  },
  actors: {
    fetch: fromPromise<PollAnswer, unknown>(async () => {
      throw new Error('pollMachine: provide the fetch actor')
    }),
  },
  actions: {
    take: assign(({ event }) => {
      const answer = (event as { output?: PollAnswer }).output ?? (event as { answer: PollAnswer }).answer
      return { data: answer.data, more: answer.more, error: null, failures: 0 }
    }),
    fail: assign({
      error: ({ event }) => messageOf((event as { error?: unknown }).error),
      failures: ({ context }: { context: PollContext }) => context.failures + 1,
    }),
  },
  guards: {
    more: ({ context }: { context: PollContext }) => context.more,
  },
}).createMachine({
  id: 'poll',
  context: ({ input }: { input: PollInput | undefined }) => ({
    data: input?.initial?.data ?? null,
    more: input?.initial?.more ?? input?.more ?? true,
    error: null,
    failures: 0,
    intervalMs: input?.intervalMs ?? RUN_POLL_MS,
  }),
  initial: 'starting',
  on: {
    REFRESH: { target: '.fetching', reenter: true },
    SET: { target: '.deciding', actions: 'take' },
  },
  states: {
    starting: {
      always: [
        { guard: ({ context }: { context: PollContext }) => context.data === null, target: 'fetching' },
        { target: 'deciding' },
      ],
    },
    deciding: {
      always: [{ guard: 'more', target: 'waiting' }, { target: 'ended' }],
    },
    waiting: {
      after: { interval: 'fetching' },
    },
    fetching: {
      invoke: {
        src: 'fetch',
        input: ({ context }: { context: PollContext }) => context.data,
        onDone: { target: 'deciding', actions: 'take' },
        onError: [
          // Data that may still change is tried again, later after each failure; else until asked.
          { guard: 'more', target: 'retrying', actions: 'fail' },
          { target: 'failed', actions: 'fail' },
        ],
      },
    },
    retrying: {
      after: { backoff: 'fetching' },
    },
    failed: {},
    ended: {},
  },
})
