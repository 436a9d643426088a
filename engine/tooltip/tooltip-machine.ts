/**
 * The tooltip group machine (spec points 4 and 9). One actor serves every tooltip on a page, so only
 * one is open at a time and the skip window spans tooltips: after one closes, another opens at once
 * if the pointer reaches it within the skip delay.
 *
 * States (the spec's names): closed, delayed-open, instant-open; plus `pending` (hover delay
 * running) and `skipping` (closed, skip window running).
 */
import { assign } from 'xstate'
import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '../constants'
import { setup } from '../util/machine-setup'

export type TooltipCloseReason = 'leave' | 'blur' | 'click' | 'scroll' | 'escape' | 'replaced'

export type TooltipEvent =
  | { type: 'POINTER_ENTER'; id: string }
  | { type: 'POINTER_LEAVE'; id: string }
  | { type: 'FOCUS'; id: string }
  | { type: 'BLUR'; id: string }
  | { type: 'CLICK'; id: string }
  | { type: 'SCROLL'; id: string }
  | { type: 'ESCAPE' }

export interface TooltipContext {
  /** The tooltip pending or open; null when closed. */
  activeId: string | null
  /** Why the last open tooltip closed (for tests and analytics). */
  lastCloseReason: TooltipCloseReason | null
}

const closeReasonOf: Record<string, TooltipCloseReason> = {
  POINTER_LEAVE: 'leave',
  BLUR: 'blur',
  CLICK: 'click',
  SCROLL: 'scroll',
  ESCAPE: 'escape',
}

export const tooltipMachine = setup({
  types: { context: {} as TooltipContext, events: {} as TooltipEvent },
  delays: { openDelay: TOOLTIP_OPEN_DELAY_MS, skipDelay: TOOLTIP_SKIP_DELAY_MS },
  guards: {
    isActive: ({ context, event }) => !('id' in event) || event.id === context.activeId,
    isOther: ({ context, event }) => 'id' in event && event.id !== context.activeId,
  },
  actions: {
    activate: assign({ activeId: ({ event }) => ('id' in event ? event.id : null) }),
    deactivate: assign({ activeId: null }),
    close: assign({
      activeId: null,
      lastCloseReason: ({ event }) => closeReasonOf[event.type] ?? null,
    }),
    replace: assign({
      activeId: ({ event }) => ('id' in event ? event.id : null),
      lastCloseReason: 'replaced' as const,
    }),
  },
}).createMachine({
  id: 'tooltip',
  context: { activeId: null, lastCloseReason: null },
  initial: 'closed',
  states: {
    closed: {
      on: {
        POINTER_ENTER: { target: 'pending', actions: 'activate' },
        FOCUS: { target: 'instant-open', actions: 'activate' },
      },
    },
    pending: {
      after: { openDelay: 'delayed-open' },
      on: {
        POINTER_ENTER: { target: 'pending', guard: 'isOther', actions: 'activate', reenter: true },
        FOCUS: { target: 'instant-open', actions: 'activate' },
        POINTER_LEAVE: { target: 'closed', guard: 'isActive', actions: 'deactivate' },
        BLUR: { target: 'closed', guard: 'isActive', actions: 'deactivate' },
        CLICK: { target: 'closed', guard: 'isActive', actions: 'deactivate' },
        SCROLL: { target: 'closed', guard: 'isActive', actions: 'deactivate' },
        ESCAPE: { target: 'closed', actions: 'deactivate' },
      },
    },
    'delayed-open': { tags: ['open'], on: openHandlers() },
    'instant-open': { tags: ['open'], on: openHandlers() },
    skipping: {
      after: { skipDelay: 'closed' },
      on: {
        POINTER_ENTER: { target: 'instant-open', actions: 'activate' },
        FOCUS: { target: 'instant-open', actions: 'activate' },
      },
    },
  },
})

function openHandlers() {
  const close = { target: 'skipping', guard: 'isActive', actions: 'close' } as const
  // Another tooltip opening closes this one and opens at once (the skip behaviour).
  const replace = { target: 'instant-open', guard: 'isOther', actions: 'replace' } as const
  return {
    POINTER_ENTER: replace,
    FOCUS: replace,
    POINTER_LEAVE: close,
    BLUR: close,
    CLICK: close,
    SCROLL: close,
    ESCAPE: { target: 'skipping', actions: 'close' },
  } as const
}

/** The spec's state names, for `data-state` on the tooltip. */
export type TooltipState = 'closed' | 'delayed-open' | 'instant-open'

/** State of one tooltip given the group's snapshot. */
export function tooltipStateFor(
  snapshot: { value: unknown; context: TooltipContext },
  id: string,
): TooltipState {
  if (snapshot.context.activeId !== id) return 'closed'
  if (snapshot.value === 'delayed-open' || snapshot.value === 'instant-open') return snapshot.value
  return 'closed'
}
