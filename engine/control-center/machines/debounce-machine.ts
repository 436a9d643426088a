import { assign, fromPromise } from 'xstate'
import { setup } from '../../util/machine-setup'

export interface DebounceContext {
  /** The latest input (what the answer must be of). */
  input: unknown
  /** The last answer, kept while a newer one is awaited. */
  output: unknown
  error: string | null
  /** How long the input must stay unchanged before it is read. */
  quietMs: number
}

export type DebounceEvent = { type: 'CHANGE'; input: unknown }

/**
 * A read that follows typing (an article's server preview and its preview links, CONTROL-CENTER §8:
 * the pane follows typing within about 1.5 s): each CHANGE waits until the input has been quiet for
 * `quietMs`, then reads it; a change during a read drops that read's answer, so an older input's
 * answer never replaces a newer one. The last answer stays shown meanwhile. The read is the provided
 * `read` actor: the machine does no I/O.
 */
export const debounceMachine = setup({
  types: {
    context: {} as DebounceContext,
    events: {} as DebounceEvent,
    input: {} as { quietMs: number },
  },
  delays: { quiet: ({ context }: { context: DebounceContext }) => context.quietMs },
  actors: {
    read: fromPromise<unknown, unknown>(async () => {
      throw new Error('debounceMachine: provide the read actor')
    }),
  },
}).createMachine({
  id: 'debounce',
  context: ({ input }: { input: { quietMs: number } }) => ({
    input: undefined,
    output: undefined,
    error: null,
    quietMs: input.quietMs,
  }),
  initial: 'idle',
  on: {
    CHANGE: { target: '.waiting', reenter: true, actions: assign({ input: ({ event }) => event.input }) },
  },
  states: {
    idle: {},
    waiting: { after: { quiet: 'reading' } },
    reading: {
      invoke: {
        src: 'read',
        input: ({ context }: { context: DebounceContext }) => context.input,
        onDone: { target: 'idle', actions: assign({ output: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'idle',
          actions: assign({
            error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)),
          }),
        },
      },
    },
  },
})
