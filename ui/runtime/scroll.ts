/**
 * Scroll on route change (spec point 2): to the top, or to the hash anchor with an offset so a sticky
 * header does not cover it. Funnel steps change the URL with the History API and call this after the
 * new step has rendered: `scrollAfterRouteChange(location.hash)`.
 */
import { SCROLL_HASH_OFFSET_PX } from '../../engine/constants'

function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches
}

/** Where to scroll for a hash: the target's top minus the offset; null when there is no target. */
export function hashTarget(hash: string, offset = SCROLL_HASH_OFFSET_PX): number | null {
  const id = decodeURIComponent(hash.replace(/^#/, ''))
  if (!id) return null
  const el = document.getElementById(id) ?? document.getElementsByName(id)[0]
  if (!el) return null
  return Math.max(0, el.getBoundingClientRect().top + window.scrollY - offset)
}

export function scrollAfterRouteChange(hash = '', offset = SCROLL_HASH_OFFSET_PX): void {
  const top = hashTarget(hash, offset) ?? 0
  window.scrollTo({ top, left: 0, behavior: prefersReducedMotion() ? 'auto' : 'instant' })
}
