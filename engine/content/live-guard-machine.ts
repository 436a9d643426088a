/**
 * What live serves when `published` holds a commit that failed its checks (docs/decisions/0610):
 * `ok` serves the ref's commit; `degraded` serves the last commit that passed and remembers the refused
 * one until the ref is back at the served commit or a commit that passes replaces it. The checks are
 * the server's (git, validation, gates); this machine only decides what follows from their answers,
 * and reports each refused commit once (its `reportRefused` action, the server's log).
 */
import { assign } from 'xstate'
import type { DefinitionError } from '../snapshot/types'
import { setup } from '../util/machine-setup'

export interface RefusedCommit {
  commit: string
  errors: DefinitionError[]
  at: string
}

export interface LiveGuardContext {
  /** The commit the site serves (null before the first one). */
  serving: string | null
  refused: RefusedCommit | null
  /** Whether the served commit passed the gates too (a commit served at start only validated). */
  verified: boolean
}

export type LiveGuardEvent =
  /** A commit passed (`verified`: its gates too, or a publication put it live): it serves. */
  | { type: 'SERVE'; commit: string; verified: boolean }
  /** An older commit that passed serves instead of the current one (the refusal, if any, stays). */
  | { type: 'FALL_BACK'; commit: string }
  /** The served commit passed the gates once the data store could say which commits were published. */
  | { type: 'VERIFIED' }
  /** The ref holds a commit that failed its checks. */
  | { type: 'REFUSE'; refused: RefusedCommit }
  /** The ref was seen at `commit` (a refresh). */
  | { type: 'REF_SEEN'; commit: string }

export const liveGuardMachine = setup({
  types: {
    context: {} as LiveGuardContext,
    events: {} as LiveGuardEvent,
  },
  actions: {
    reportRefused: () => {},
    reportRestored: () => {},
  },
  guards: {
    newRefusal: ({ context, event }) =>
      event.type === 'REFUSE' && event.refused.commit !== context.refused?.commit,
    notRefused: ({ context, event }) =>
      event.type === 'FALL_BACK' && event.commit !== context.refused?.commit,
    atServing: ({ context, event }) => event.type === 'REF_SEEN' && event.commit === context.serving,
  },
}).createMachine({
  id: 'live-guard',
  context: { serving: null, refused: null, verified: false },
  initial: 'ok',
  on: {
    SERVE: {
      target: '.ok',
      actions: assign(({ event }) =>
        event.type === 'SERVE' ? { serving: event.commit, verified: event.verified, refused: null } : {},
      ),
    },
    FALL_BACK: {
      // Never to the refused commit itself.
      guard: 'notRefused',
      actions: assign(({ event }) =>
        event.type === 'FALL_BACK' ? { serving: event.commit, verified: true } : {},
      ),
    },
    VERIFIED: { actions: assign({ verified: true }) },
    REFUSE: {
      guard: 'newRefusal',
      target: '.degraded',
      actions: [
        assign(({ event }) => (event.type === 'REFUSE' ? { refused: event.refused } : {})),
        'reportRefused',
      ],
    },
  },
  states: {
    ok: {},
    degraded: {
      on: {
        REF_SEEN: {
          guard: 'atServing',
          target: 'ok',
          actions: [assign({ refused: null }), 'reportRestored'],
        },
      },
    },
  },
})
