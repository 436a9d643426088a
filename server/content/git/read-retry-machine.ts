/**
 * One read through the shared `git cat-file --batch` process, from sent to answered or failed
 * (docs/decisions/0706). When the process dies, every read it had not answered gets DIED: the one it
 * was answering (`current`) is charged a death, the ones queued behind are not. A read goes again
 * to a new process until it has been charged CAT_FILE_MAX_DEATHS_PER_READ deaths; then it fails
 * alone. CLOSED (the repository closes) fails it at once.
 */
import { assign } from 'xstate'
import { setup } from '../../../engine/util/machine-setup'

/** A read the process died on this many times fails; the reads queued behind it go on. */
export const CAT_FILE_MAX_DEATHS_PER_READ = 2

export type ReadRetryEvent = { type: 'ANSWERED' } | { type: 'DIED'; current: boolean } | { type: 'CLOSED' }

export const readRetryMachine = setup({
  types: { context: {} as { deaths: number }, events: {} as ReadRetryEvent },
  guards: {
    lastDeath: ({ context, event }) =>
      event.type === 'DIED' && event.current && context.deaths + 1 >= CAT_FILE_MAX_DEATHS_PER_READ,
    current: ({ event }) => event.type === 'DIED' && event.current,
  },
  actions: {
    charge: assign({ deaths: ({ context }) => context.deaths + 1 }),
  },
}).createMachine({
  id: 'readRetry',
  context: { deaths: 0 },
  initial: 'waiting',
  states: {
    /** Sent to a process, not answered yet. */
    waiting: {
      on: {
        ANSWERED: 'answered',
        DIED: [
          { guard: 'lastDeath', target: 'failed', actions: 'charge' },
          // Sent again to the new process (a re-entry: the read waits anew).
          { guard: 'current', target: 'waiting', reenter: true, actions: 'charge' },
          { target: 'waiting', reenter: true },
        ],
        CLOSED: 'failed',
      },
    },
    answered: { type: 'final' },
    failed: { type: 'final' },
  },
})
