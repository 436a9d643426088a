import { type ReactNode, useEffect, useId, useRef } from 'react'

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])'

/**
 * A modal dialog on the native `<dialog>`: showModal() makes the rest of the page inert (focus stays
 * inside), Escape closes, focus returns to the opener.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  wide,
}: {
  open: boolean
  title: string
  onClose: () => void
  children: ReactNode
  wide?: boolean
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const d = ref.current
    if (!d) return
    if (open && !d.open) {
      const opener = document.activeElement as HTMLElement | null
      d.showModal()
      return () => opener?.focus?.()
    }
    if (!open && d.open) d.close()
  }, [open])
  return (
    <dialog
      ref={ref}
      onKeyDown={(e) => {
        // showModal() makes the page inert, but Tab may still leave for the browser's own UI: wrap.
        if (e.key !== 'Tab') return
        const items = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
          (el) => !el.hasAttribute('disabled') && el.offsetParent !== null,
        )
        if (!items.length) return
        const first = items[0]
        const last = items[items.length - 1]
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault()
          last.focus()
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault()
          first.focus()
        }
      }}
      className={wide ? 'cc-dialog cc-dialog-wide' : 'cc-dialog'}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
    >
      {open && (
        <>
          <div className="cc-dialog-head">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="cc-icon-button" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </div>
          <div className="cc-dialog-body">{children}</div>
        </>
      )}
    </dialog>
  )
}
