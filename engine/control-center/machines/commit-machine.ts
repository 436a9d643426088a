import { assign, fromPromise } from 'xstate'
import { setup } from '../../util/machine-setup'

/** A conflict the merge dialog can settle: the files with their three texts, and the head theirs is on. */
export interface MergeOffer {
  files: unknown[]
  head: string
}

/** What a commit answers: done, or a conflict (409 with a head) for the merge dialog. */
export type CommitAnswer = { committed: true } | { merge: MergeOffer }

export interface CommitContext {
  /** The commit message, kept when a try fails. */
  message: string
  /** Why the last try failed (the error itself, for its conflicts); null otherwise. */
  failure: { message: string; error: unknown } | null
  /** The conflict the merge dialog shows; null when it is closed. */
  merge: MergeOffer | null
}

export type CommitEvent =
  | { type: 'OPEN' }
  | { type: 'CLOSE' }
  | { type: 'SUBMIT'; message: string }
  /** The merge dialog's commit met a newer conflict: it asks again on that head. */
  | { type: 'CONFLICT'; merge: MergeOffer }
  /** The merge dialog committed the settled text. */
  | { type: 'COMMITTED' }

/** Said when the draft could not reach the server before a commit. */
export const DRAFT_NOT_SAVED = 'Your draft could not be saved; try again.'

const failed = (error: unknown) => ({
  message: error instanceof Error ? error.message : String(error),
  error,
})

/**
 * Committing my draft of a file (issue 28, "commit, merge dialog"; CONTROL-CENTER §2.5 A): the commit
 * dialog asks for a message; my draft is saved first (`flush`: the draft machine's SAVE), then
 * committed with a compare-and-swap on the head (`commit`). A conflict the merge dialog can settle
 * (409 with a head and each file's texts) opens it; its own commit either ends the flow or meets a
 * newer conflict and asks again on that head. Any other failure is shown in the commit dialog with the
 * message kept. Both requests are provided actors, and `committed` tells the editor: no I/O here.
 */
export const commitMachine = setup({
  types: {
    context: {} as CommitContext,
    events: {} as CommitEvent,
  },
  actors: {
    flush: fromPromise<boolean>(async () => {
      throw new Error('commitMachine: provide the flush actor')
    }),
    commit: fromPromise<CommitAnswer, { message: string }>(async () => {
      throw new Error('commitMachine: provide the commit actor')
    }),
  },
  actions: {
    committed: () => {},
  },
}).createMachine({
  id: 'commit',
  context: { message: '', failure: null, merge: null },
  initial: 'closed',
  states: {
    closed: {
      entry: assign({ failure: null, merge: null }),
      on: { OPEN: 'composing' },
    },
    composing: {
      on: {
        SUBMIT: {
          guard: ({ event }) => event.message.trim() !== '',
          target: 'flushing',
          actions: assign({ message: ({ event }) => event.message.trim(), failure: null }),
        },
        CLOSE: 'closed',
      },
    },
    flushing: {
      invoke: {
        src: 'flush',
        onDone: [
          { guard: ({ event }) => event.output === true, target: 'committing' },
          { target: 'composing', actions: assign({ failure: failed(new Error(DRAFT_NOT_SAVED)) }) },
        ],
        onError: { target: 'composing', actions: assign({ failure: ({ event }) => failed(event.error) }) },
      },
      on: { CLOSE: 'closed' },
    },
    committing: {
      invoke: {
        src: 'commit',
        input: ({ context }) => ({ message: context.message }),
        onDone: [
          {
            guard: ({ event }) => 'merge' in event.output,
            target: 'merging',
            actions: assign({ merge: ({ event }) => (event.output as { merge: MergeOffer }).merge }),
          },
          { target: 'closed', actions: ['committed', assign({ message: '' })] },
        ],
        onError: { target: 'composing', actions: assign({ failure: ({ event }) => failed(event.error) }) },
      },
      on: { CLOSE: 'closed' },
    },
    merging: {
      on: {
        CONFLICT: { target: 'merging', actions: assign({ merge: ({ event }) => event.merge }) },
        COMMITTED: { target: 'closed', actions: ['committed', assign({ message: '' })] },
        CLOSE: 'closed',
      },
    },
  },
})
