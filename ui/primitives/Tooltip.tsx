import {
  autoUpdate,
  flip,
  offset,
  type Placement,
  shift,
  useFloating,
  useMergeRefs,
} from '@floating-ui/react'
import {
  cloneElement,
  type FocusEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  type Ref,
  useEffect,
  useId,
  useSyncExternalStore,
} from 'react'
import { createPortal } from 'react-dom'
import { TOOLTIP_DEFAULT_OFFSET, TOOLTIP_DEFAULT_SIDE } from '../../engine/constants'
import { type TooltipState, tooltipStateFor } from '../../engine/tooltip/tooltip-machine'
import { tooltipGroup } from './tooltip-group'
import './primitives.css'

type TriggerProps = {
  ref?: Ref<HTMLElement>
  onPointerEnter?: (e: PointerEvent<HTMLElement>) => void
  onPointerLeave?: (e: PointerEvent<HTMLElement>) => void
  onFocus?: (e: FocusEvent<HTMLElement>) => void
  onBlur?: (e: FocusEvent<HTMLElement>) => void
  onClick?: (e: React.MouseEvent<HTMLElement>) => void
  'aria-describedby'?: string
}

export interface TooltipProps {
  content: ReactNode
  /** One focusable element: the trigger. */
  children: ReactElement<TriggerProps>
  side?: 'top' | 'right' | 'bottom' | 'left'
  sideOffset?: number
}

function useTooltipState(id: string): TooltipState {
  return useSyncExternalStore(
    (onChange) => {
      const sub = tooltipGroup().subscribe(onChange)
      return () => sub.unsubscribe()
    },
    () => tooltipStateFor(tooltipGroup().getSnapshot(), id),
    () => 'closed',
  )
}

/**
 * Tooltip (spec points 4 and 9): opens after the hover delay, at once within the skip window or on
 * keyboard focus; closes on pointer leave, blur, click, ancestor scroll, Escape or another tooltip
 * opening. Positioned by Floating UI, default side top, offset 0; `role="tooltip"` described by the
 * trigger's `aria-describedby`.
 */
export function Tooltip({
  content,
  children,
  side = TOOLTIP_DEFAULT_SIDE,
  sideOffset = TOOLTIP_DEFAULT_OFFSET,
}: TooltipProps) {
  const id = useId()
  const tipId = `${id}-tooltip`
  const state = useTooltipState(id)
  const open = state !== 'closed'
  const { refs, floatingStyles, elements } = useFloating({
    open,
    placement: side as Placement,
    strategy: 'fixed',
    middleware: [offset(sideOffset), flip(), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  })
  const send = (type: 'POINTER_ENTER' | 'POINTER_LEAVE' | 'FOCUS' | 'BLUR' | 'CLICK' | 'SCROLL') =>
    tooltipGroup().send({ type, id })

  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') tooltipGroup().send({ type: 'ESCAPE' })
    }
    // A scroll of any ancestor (or the page) moves the trigger away from its tooltip: close.
    const onScroll = (e: Event) => {
      const trigger = elements.domReference
      const target = e.target
      if (!trigger || target === document || (target instanceof Node && target.contains(trigger)))
        tooltipGroup().send({ type: 'SCROLL', id })
    }
    document.addEventListener('keydown', onKey)
    window.addEventListener('scroll', onScroll, { capture: true, passive: true })
    return () => {
      document.removeEventListener('keydown', onKey)
      window.removeEventListener('scroll', onScroll, { capture: true })
    }
  }, [open, elements.domReference, id])

  const child = children.props
  const triggerRef = useMergeRefs([refs.setReference, child.ref])
  const trigger = cloneElement(children, {
    ref: triggerRef,
    'aria-describedby': open
      ? [child['aria-describedby'], tipId].filter(Boolean).join(' ')
      : child['aria-describedby'],
    onPointerEnter: (e) => {
      child.onPointerEnter?.(e)
      if (e.pointerType !== 'touch') send('POINTER_ENTER')
    },
    onPointerLeave: (e) => {
      child.onPointerLeave?.(e)
      send('POINTER_LEAVE')
    },
    onFocus: (e) => {
      child.onFocus?.(e)
      // Keyboard focus only: a mouse click also focuses, and must not open the tooltip.
      if (e.currentTarget.matches(':focus-visible')) send('FOCUS')
    },
    onBlur: (e) => {
      child.onBlur?.(e)
      send('BLUR')
    },
    onClick: (e) => {
      child.onClick?.(e)
      send('CLICK')
    },
  })

  return (
    <>
      {trigger}
      {open &&
        createPortal(
          <div
            ref={refs.setFloating}
            id={tipId}
            role="tooltip"
            className="tooltip"
            data-state={state}
            data-side={side}
            style={floatingStyles}
          >
            {content}
          </div>,
          document.body,
        )}
    </>
  )
}
