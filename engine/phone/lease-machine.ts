/**
 * The phone lease (spec points 4 and 9). Once the visitor IP is known, every 4 s: drop an expired
 * lease, and request a number when none is held or it expires within 20 s. A quote-field change cuts
 * the held number's expiry to 10 s from now. Failures are ignored: the last good number stays until
 * it expires, then the page falls back to the rule's default.
 *
 * The request itself is the `requestPhone` actor, supplied with `provide()`; time comes from `now`
 * in the input so tests run with fake timers.
 */
import { assign, fromPromise } from 'xstate'
import {
  PHONE_EXPIRY_CUT_ON_CHANGE_MS,
  PHONE_POLL_INTERVAL_MS,
  PHONE_REFRESH_BEFORE_EXPIRY_MS,
} from '../constants'
import { setup } from '../util/machine-setup'
import type { LeasedPhone } from './leased-phone'

export interface LeaseContext {
  leased: LeasedPhone | null
  now: () => number
  /** Requests made, successful or not (for display and tests). */
  attempts: number
  /** A quote field changed while a request was out: the number it brings was chosen on old answers. */
  changedDuringRequest: boolean
}

export type LeaseEvent = { type: 'IP_KNOWN' } | { type: 'QUOTE_CHANGED' }

export const leaseMachine = setup({
  types: {
    context: {} as LeaseContext,
    events: {} as LeaseEvent,
    /** `leased`: a number the page already holds (a funnel step the server leased for: 0235). */
    input: {} as { now?: () => number; leased?: LeasedPhone | null } | undefined,
  },
  actors: {
    // Replaced by the page with provide(); resolving null means "no number this time".
    requestPhone: fromPromise<LeasedPhone | null>(async () => null),
  },
  guards: {
    needsLease: ({ context }) =>
      !context.leased || context.leased.expiresAt - context.now() < PHONE_REFRESH_BEFORE_EXPIRY_MS,
  },
  actions: {
    storeLease: assign({
      leased: ({ context, event }) => {
        const output = (event as unknown as { output?: LeasedPhone | null }).output
        return output && output.expiresAt > context.now() ? output : context.leased
      },
    }),
    dropExpired: assign({
      leased: ({ context }) =>
        context.leased && context.leased.expiresAt > context.now() ? context.leased : null,
    }),
    cutExpiry: assign({
      leased: ({ context }) => {
        if (!context.leased) return null
        const cut = context.now() + PHONE_EXPIRY_CUT_ON_CHANGE_MS
        return context.leased.expiresAt > cut ? { ...context.leased, expiresAt: cut } : context.leased
      },
    }),
  },
}).createMachine({
  id: 'phoneLease',
  context: ({ input }) => ({
    leased: input?.leased ?? null,
    now: input?.now ?? (() => Date.now()),
    attempts: 0,
    changedDuringRequest: false,
  }),
  initial: 'waitingForIp',
  on: { QUOTE_CHANGED: { actions: 'cutExpiry' } },
  states: {
    waitingForIp: { on: { IP_KNOWN: 'checking' } },
    checking: {
      entry: 'dropExpired',
      always: [{ guard: 'needsLease', target: 'requesting' }, { target: 'waiting' }],
    },
    requesting: {
      entry: assign({ attempts: ({ context }) => context.attempts + 1, changedDuringRequest: false }),
      on: {
        QUOTE_CHANGED: { actions: ['cutExpiry', assign({ changedDuringRequest: true })] },
      },
      invoke: {
        src: 'requestPhone',
        onDone: [
          // A number chosen on answers that have changed since is cut like any other.
          {
            guard: ({ context }) => context.changedDuringRequest,
            target: 'waiting',
            actions: ['storeLease', 'cutExpiry'],
          },
          { target: 'waiting', actions: 'storeLease' },
        ],
        onError: 'waiting',
      },
    },
    waiting: { after: { [PHONE_POLL_INTERVAL_MS]: 'checking' } },
  },
})
