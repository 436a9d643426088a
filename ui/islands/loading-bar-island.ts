/**
 * The loading indicator above the page content (spec point 2), in plain DOM: shown only when a
 * navigation (a funnel step change) lasts longer than the throttle, grows over the duration, in the
 * spec's colour and height. The server renders its hidden bar (LoadingBar.tsx); `mountLoadingBar`
 * drives it, from LoadingBar's effect on React pages and as an island on funnel steps, which
 * hydrate only their form (docs/decisions/0522).
 */
import { LOADING_DURATION_MS, LOADING_THROTTLE_MS } from '../../engine/constants'

type Listener = (loading: boolean) => void
const listeners = new Set<Listener>()
let active = 0

/** Marks the start of a client navigation (funnel step change); returns the function that ends it. */
export function startLoading(): () => void {
  active++
  for (const l of listeners) l(true)
  let done = false
  return () => {
    if (done) return
    done = true
    active = Math.max(0, active - 1)
    if (active === 0) for (const l of listeners) l(false)
  }
}

/** Draws a progress (0–1) on the bar, or hides it (null). */
function draw(bar: HTMLElement, progress: number | null): void {
  bar.setAttribute('aria-hidden', String(progress === null))
  bar.setAttribute('aria-valuenow', String(progress === null ? 0 : Math.round(progress * 100)))
  bar.style.transform = `scaleX(${progress ?? 0})`
  bar.style.opacity = progress === null ? '0' : '1'
}

/** Makes the server-rendered bar follow `startLoading()`; returns the function that stops it. */
export function mountLoadingBar(
  bar: HTMLElement,
  { throttle = LOADING_THROTTLE_MS, duration = LOADING_DURATION_MS } = {},
): () => void {
  let show: ReturnType<typeof setTimeout> | undefined
  let tick: ReturnType<typeof setInterval> | undefined
  let progress: number | null = null
  const set = (p: number | null) => {
    progress = p
    draw(bar, p)
  }
  const onChange: Listener = (loading) => {
    clearTimeout(show)
    clearInterval(tick)
    if (loading) {
      show = setTimeout(() => {
        const started = Date.now()
        set(0.1)
        tick = setInterval(() => {
          const elapsed = Date.now() - started
          // Ease towards 90 % over the duration; finishing jumps to 100 %.
          set(Math.min(0.9, 0.1 + 0.8 * (1 - Math.exp((-3 * elapsed) / duration))))
        }, 100)
      }, throttle)
    } else {
      if (progress !== null) set(1)
      show = setTimeout(() => set(null), 250)
    }
  }
  listeners.add(onChange)
  return () => {
    listeners.delete(onChange)
    clearTimeout(show)
    clearInterval(tick)
  }
}
