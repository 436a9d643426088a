/**
 * Build check (spec points 4, 7, 8). Polls `builds/latest.json` on an interval (and when asked, e.g. on
 * tab focus); once a newer build is known and a chunk has failed to load, the next navigation becomes
 * a full page load of its URL. The reload guard (RELOAD_GUARD_MS) stops a reload loop when the fresh
 * page fails again.
 *
 * Effects are injected: `fetchLatest` (an actor returning the latest build id) and the `reload`
 * action (which must record the reload time somewhere that survives the reload).
 */
import { assign, fromPromise } from 'xstate'
import { BUILD_CHECK_INTERVAL_MS, RELOAD_GUARD_MS } from '../constants'
import { setup } from '../util/machine-setup'

export interface BuildCheckInput {
  /** The build this page was rendered with. */
  buildId: string
  /** When the last guarded reload happened (epoch ms), from session storage; null if never. */
  lastReloadAt: number | null
  /** The clock (Date.now unless a test simulates time). */
  now?: () => number
}

export interface BuildCheckContext extends BuildCheckInput {
  now: () => number
  latestId: string | null
  chunkFailed: boolean
  /** URL the page reloads to (set on entering `reloading`). */
  reloadUrl: string | null
}

export type BuildCheckEvent = { type: 'CHECK' } | { type: 'CHUNK_FAILED' } | { type: 'NAVIGATE'; url: string }

/** True when no guarded reload happened within the guard lifetime. */
export function reloadAllowed(lastReloadAt: number | null, now: number): boolean {
  return lastReloadAt === null || now - lastReloadAt >= RELOAD_GUARD_MS || now < lastReloadAt
}

export const buildCheckMachine = setup({
  types: {
    input: {} as BuildCheckInput,
    context: {} as BuildCheckContext,
    events: {} as BuildCheckEvent,
  },
  delays: { checkInterval: BUILD_CHECK_INTERVAL_MS },
  actors: {
    fetchLatest: fromPromise<{ id: string }>(async () => {
      throw new Error('fetchLatest not provided')
    }),
  },
  guards: {
    isNewBuild: ({ context }, params: { id: string }) => params.id !== context.buildId,
    mayReload: ({ context }) => context.chunkFailed && reloadAllowed(context.lastReloadAt, context.now()),
  },
  actions: {
    reload: (_, _params: { url: string }) => {},
  },
}).createMachine({
  id: 'buildCheck',
  context: ({ input }) => ({
    ...input,
    now: input.now ?? (() => Date.now()),
    latestId: null,
    chunkFailed: false,
    reloadUrl: null,
  }),
  initial: 'idle',
  on: {
    CHUNK_FAILED: { actions: assign({ chunkFailed: true }) },
  },
  states: {
    idle: {
      after: { checkInterval: 'checking' },
      on: {
        CHECK: 'checking',
        // A failed chunk is the strongest hint of a new deploy: check at once.
        CHUNK_FAILED: { target: 'checking', actions: assign({ chunkFailed: true }) },
      },
    },
    checking: {
      invoke: {
        src: 'fetchLatest',
        onDone: [
          {
            guard: { type: 'isNewBuild', params: ({ event }) => ({ id: event.output.id }) },
            target: 'newBuild',
            actions: assign({ latestId: ({ event }) => event.output.id }),
          },
          { target: 'idle' },
        ],
        // A failed check (offline, server restarting) just waits for the next one.
        onError: 'idle',
      },
    },
    newBuild: {
      on: {
        NAVIGATE: {
          guard: 'mayReload',
          target: 'reloading',
          actions: assign({
            reloadUrl: ({ event }) => event.url,
            lastReloadAt: ({ context }) => context.now(),
          }),
        },
      },
    },
    reloading: {
      entry: { type: 'reload', params: ({ context }) => ({ url: context.reloadUrl ?? '/' }) },
      type: 'final',
    },
  },
})
