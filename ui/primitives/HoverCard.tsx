import {
  autoUpdate,
  FloatingPortal,
  flip,
  offset,
  safePolygon,
  shift,
  useDismiss,
  useFloating,
  useFocus,
  useHover,
  useInteractions,
  useRole,
} from '@floating-ui/react'
import { cloneElement, type ReactElement, type ReactNode, useState } from 'react'
import { HOVER_CARD_CLOSE_DELAY_MS, HOVER_CARD_OPEN_DELAY_MS } from '../../engine/constants'
import './primitives.css'

export interface HoverCardProps {
  /** The trigger (usually a link). */
  children: ReactElement<Record<string, unknown>>
  content: ReactNode
  label: string
}

/**
 * Hover card (spec point 9): a preview that opens 700 ms after the pointer rests on the trigger and
 * closes 300 ms after it leaves both trigger and card (so the pointer can travel into the card).
 * Keyboard focus opens it as well; Escape closes it.
 */
export function HoverCard({ children, content, label }: HoverCardProps) {
  const [open, setOpen] = useState(false)
  const { refs, floatingStyles, context } = useFloating({
    open,
    onOpenChange: setOpen,
    placement: 'bottom',
    middleware: [offset(8), flip(), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  })
  const hover = useHover(context, {
    delay: { open: HOVER_CARD_OPEN_DELAY_MS, close: HOVER_CARD_CLOSE_DELAY_MS },
    handleClose: safePolygon(),
    mouseOnly: true,
  })
  const focus = useFocus(context, { visibleOnly: true })
  const dismiss = useDismiss(context)
  const role = useRole(context, { role: 'dialog' })
  const { getReferenceProps, getFloatingProps } = useInteractions([hover, focus, dismiss, role])
  return (
    <>
      {cloneElement(children, { ref: refs.setReference, ...getReferenceProps(children.props) })}
      {open && (
        <FloatingPortal>
          <div
            ref={refs.setFloating}
            className="hover-card"
            role="dialog"
            aria-label={label}
            data-state="open"
            style={floatingStyles}
            {...getFloatingProps()}
          >
            {content}
          </div>
        </FloatingPortal>
      )}
    </>
  )
}
