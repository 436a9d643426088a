import { useEffect } from 'react'
import { fieldDomId } from './PageForm'

/** How long a focus request waits for its field to appear (a tab switch renders it first). */
const FOCUS_WAIT_MS = 2000

/**
 * Focuses the form element of a JSON pointer (the preview's Select mode): the element marked
 * `data-pointer="<pointer>"`, else the one with id `fieldDomId(pointer)` (`/hero/headline` →
 * `pf-hero-headline`). Waits for it across the frames a tab switch takes.
 */
export function useFocusPointer(focus: { pointer: string; n: number } | null): void {
  useEffect(() => {
    if (!focus) return
    const until = performance.now() + FOCUS_WAIT_MS
    let frame = 0
    const tryFocus = () => {
      const el =
        document.querySelector<HTMLElement>(`[data-pointer="${CSS.escape(focus.pointer)}"]`) ??
        document.getElementById(fieldDomId(focus.pointer))
      if (el) {
        if (document.activeElement !== el) {
          el.scrollIntoView({ block: 'center' })
          el.focus()
        }
        return
      }
      if (performance.now() < until) frame = requestAnimationFrame(tryFocus)
    }
    tryFocus()
    return () => cancelAnimationFrame(frame)
  }, [focus])
}
