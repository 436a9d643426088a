import { assign, fromPromise } from 'xstate'
import { setup } from '../../util/machine-setup'

/** An editor autosaves its draft after this much idle time (CONTROL-CENTER §2.3). */
export const CC_AUTOSAVE_IDLE_MS = 800

/** One definition file as the editor opens it: the server's side and what this browser kept. */
export interface DraftLoad {
  /** My draft on the server, else the branch's text. */
  server: string
  /** Text typed here that the server never got (a 401, a lost connection, a reload). */
  kept: string | null
  /** Text typed on live, carried to the branch created to save it. */
  carried: string | null
  /** The branch head the file was read on, and whether my draft is on the server. */
  head: string
  hasDraft: boolean
  /** The server's errors for branch plus drafts (schema and cross-checks, with pointers). */
  errors: unknown[]
  /** Live: nothing is saved there; a change offers a branch. */
  readOnly: boolean
}

export interface DraftContext {
  /** The text as typed; null until loaded. */
  text: string | null
  /** The text of the save in flight. */
  sending: string | null
  /** The commit my text was written on, when known: my draft's base (a stale editor must not undo others' commits). */
  base: string | undefined
  errors: unknown[]
  /** Why the last save failed; null once one succeeds. */
  saveError: string | null
  readOnly: boolean
  /** On live: a branch was offered once already. */
  offered: boolean
}

export type DraftEvent =
  /** The file (re)loaded. */
  | ({ type: 'LOADED' } & DraftLoad)
  /** The editor changed the text. */
  | { type: 'EDIT'; text: string }
  /** Save now (Retry, or a commit that needs the draft on the server first). */
  | { type: 'SAVE' }
  /** The merge dialog wrote this settled text as my draft on `head`. */
  | { type: 'RESOLVED'; text: string; head: string }

type Loaded = Extract<DraftEvent, { type: 'LOADED' }>
const startText = (e: Loaded) => e.kept ?? e.carried ?? e.server

const editing = {
  target: 'unsaved',
  reenter: true,
  actions: [
    'take',
    { type: 'keep', params: ({ event }: { event: DraftEvent }) => ({ text: textOf(event) }) },
  ],
} as const
const textOf = (event: DraftEvent) => (event as { text: string }).text

/**
 * One definition file's draft (issue 28, "the draft"; CONTROL-CENTER §2.3): every change is kept in
 * this browser at once and autosaved as my draft after 800 ms without typing; typing during a save is
 * saved next; a failed save says why and waits for Retry or the next change; each save's answer brings
 * the server's errors (schema plus cross-checks) with their pointers. On live nothing is saved: a
 * change is carried and a branch offered once. A merge settled in the merge dialog becomes my draft on
 * the head it was merged with. The save is the provided `saveDraft` actor; `keep`, `carry`, `forget`,
 * `offerBranch` and `saved` are the browser's side (localStorage, the shell, the preview): the machine
 * does no I/O. Committing is commit-machine.ts.
 */
export const draftMachine = setup({
  types: {
    context: {} as DraftContext,
    events: {} as DraftEvent,
  },
  delays: { autosave: CC_AUTOSAVE_IDLE_MS },
  actors: {
    saveDraft: fromPromise<{ errors: unknown[] }, { text: string; base?: string }>(async () => {
      throw new Error('draftMachine: provide the saveDraft actor')
    }),
  },
  guards: {
    readOnly: ({ event }) => (event as Loaded).readOnly,
    changedHere: ({ event }) => startText(event as Loaded) !== (event as Loaded).server,
    unchangedSince: ({ context }) => context.sending === context.text,
    mayOffer: ({ context }) => !context.offered,
  },
  actions: {
    take: assign({ text: ({ event }) => textOf(event) }),
    keep: (_, _params: { text: string }) => {},
    carry: (_, _params: { text: string }) => {},
    forget: () => {},
    offerBranch: () => {},
    saved: (_, _params: { text: string }) => {},
    load: assign(({ event }) => {
      const e = event as Loaded
      return {
        text: startText(e),
        sending: null,
        // Text straight from the head (no draft of mine, nothing kept): my draft's base is this head.
        base: !e.hasDraft && e.kept === null && e.carried === null && !e.readOnly ? e.head : undefined,
        errors: e.errors,
        saveError: null,
        readOnly: e.readOnly,
        offered: false,
      }
    }),
    answered: assign(({ event }) => ({
      errors: (event as unknown as { output: { errors: unknown[] } }).output.errors,
      saveError: null,
    })),
    settle: assign(({ event }) => {
      const e = event as Extract<DraftEvent, { type: 'RESOLVED' }>
      return { text: e.text, base: e.head, sending: null, saveError: null }
    }),
  },
}).createMachine({
  id: 'draft',
  context: {
    text: null,
    sending: null,
    base: undefined,
    errors: [],
    saveError: null,
    readOnly: false,
    offered: false,
  },
  initial: 'loading',
  on: {
    LOADED: [
      { guard: 'readOnly', target: '.readOnly', actions: 'load' },
      {
        guard: 'changedHere',
        target: '.unsaved',
        reenter: true,
        actions: ['load', { type: 'keep', params: ({ event }) => ({ text: startText(event as Loaded) }) }],
      },
      { target: '.saved', actions: 'load' },
    ],
  },
  states: {
    loading: {},
    readOnly: {
      on: {
        EDIT: [
          {
            guard: 'mayOffer',
            actions: [
              'take',
              { type: 'carry', params: ({ event }) => ({ text: textOf(event) }) },
              assign({ offered: true }),
              'offerBranch',
            ],
          },
          { actions: ['take', { type: 'carry', params: ({ event }) => ({ text: textOf(event) }) }] },
        ],
      },
    },
    saved: {
      on: { EDIT: editing, RESOLVED: { target: 'saved', actions: ['settle', 'forget'] } },
    },
    unsaved: {
      after: { autosave: 'saving' },
      on: { EDIT: editing, SAVE: 'saving', RESOLVED: { target: 'saved', actions: ['settle', 'forget'] } },
    },
    saving: {
      entry: assign({ sending: ({ context }) => context.text }),
      invoke: {
        src: 'saveDraft',
        input: ({ context }) => ({
          text: context.sending ?? '',
          ...(context.base ? { base: context.base } : {}),
        }),
        onDone: [
          {
            guard: 'unchangedSince',
            target: 'saved',
            actions: [
              'answered',
              'forget',
              { type: 'saved', params: ({ context }) => ({ text: context.sending ?? '' }) },
            ],
          },
          // Typed meanwhile: the newer text autosaves in turn.
          {
            target: 'unsaved',
            actions: [
              'answered',
              { type: 'saved', params: ({ context }) => ({ text: context.sending ?? '' }) },
            ],
          },
        ],
        onError: {
          target: 'failed',
          actions: assign({
            saveError: ({ event }) =>
              event.error instanceof Error ? event.error.message : String(event.error),
            sending: null,
          }),
        },
      },
      on: {
        EDIT: { actions: ['take', { type: 'keep', params: ({ event }) => ({ text: textOf(event) }) }] },
        RESOLVED: { target: 'saved', actions: ['settle', 'forget'] },
      },
    },
    failed: {
      on: { EDIT: editing, SAVE: 'saving', RESOLVED: { target: 'saved', actions: ['settle', 'forget'] } },
    },
  },
})
