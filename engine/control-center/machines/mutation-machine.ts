import { assign, fromPromise } from 'xstate'
import { setup } from '../../util/machine-setup'

/** What a failed mutation keeps: the message to show, and the error itself for details (status, fields). */
export interface MutationFailure {
  message: string
  error: unknown
}

export interface MutationContext {
  /** The input of the last RUN, kept so RETRY sends the same request again. */
  input: unknown
  output: unknown
  failure: MutationFailure | null
  /** Tries of the current input (1 on the first run, +1 per retry). */
  attempts: number
}

export type MutationEvent =
  /** Send a request with this input. Ignored while one is in flight: a double click sends once. */
  | { type: 'RUN'; input: unknown }
  /** After a failure: send the same input again. */
  | { type: 'RETRY' }
  /** Forget the outcome (close the error, or the dialog that showed it). */
  | { type: 'RESET' }

const start = assign<MutationContext, MutationEvent, undefined, MutationEvent, never>(({ event }) => ({
  input: (event as Extract<MutationEvent, { type: 'RUN' }>).input,
  output: undefined,
  failure: null,
  attempts: 1,
}))
const clear = assign<MutationContext, MutationEvent, undefined, MutationEvent, never>({
  output: undefined,
  failure: null,
  attempts: 0,
})

const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : 'The request failed'

/**
 * One control-center write (issue 28, "every mutation"): idle → running → succeeded or failed, with
 * retry of the same input. A RUN while running is ignored, so a double click or a second Enter sends
 * one request. The request is the `perform` actor and the component's reactions are the `done` and
 * `fail` actions, both provided by ui/control-center/use-mutation.ts: the machine does no I/O.
 */
export const mutationMachine = setup({
  types: {
    context: {} as MutationContext,
    events: {} as MutationEvent,
  },
  actors: {
    perform: fromPromise<unknown, unknown>(async () => {
      throw new Error('mutationMachine: provide the perform actor')
    }),
  },
  actions: {
    done: (_, _params: { output: unknown; input: unknown }) => {},
    fail: (_, _params: { failure: MutationFailure; input: unknown }) => {},
  },
}).createMachine({
  id: 'mutation',
  context: { input: undefined, output: undefined, failure: null, attempts: 0 },
  initial: 'idle',
  states: {
    idle: {
      on: { RUN: { target: 'running', actions: start } },
    },
    running: {
      invoke: {
        src: 'perform',
        input: ({ context }: { context: MutationContext }) => context.input,
        onDone: {
          target: 'succeeded',
          actions: [
            assign({ output: ({ event }) => event.output }),
            {
              type: 'done',
              params: ({ context, event }) => ({ output: event.output, input: context.input }),
            },
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            assign({ failure: ({ event }) => ({ message: messageOf(event.error), error: event.error }) }),
            {
              type: 'fail',
              params: ({ context, event }) => ({
                failure: { message: messageOf(event.error), error: event.error },
                input: context.input,
              }),
            },
          ],
        },
      },
    },
    succeeded: {
      on: {
        RUN: { target: 'running', actions: start },
        RESET: { target: 'idle', actions: clear },
      },
    },
    failed: {
      on: {
        RUN: { target: 'running', actions: start },
        RETRY: {
          target: 'running',
          actions: assign({ failure: null, attempts: ({ context }) => context.attempts + 1 }),
        },
        RESET: { target: 'idle', actions: clear },
      },
    },
  },
})
