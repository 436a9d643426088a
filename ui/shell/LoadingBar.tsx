import { useEffect, useRef, useState } from 'react'
import {
  LOADING_DURATION_MS,
  LOADING_HEIGHT_PX,
  LOADING_THROTTLE_MS,
  PROGRESS_BAR_COLOR,
} from '../../engine/constants'

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

/**
 * The loading indicator above the page content (spec point 2): shown only when a navigation lasts
 * longer than the throttle, grows over the duration, in the spec's colour and height.
 */
export function LoadingBar({
  throttle = LOADING_THROTTLE_MS,
  duration = LOADING_DURATION_MS,
  height = LOADING_HEIGHT_PX,
  color = PROGRESS_BAR_COLOR,
}: {
  throttle?: number
  duration?: number
  height?: number
  color?: string
}) {
  const [progress, setProgress] = useState<number | null>(null)
  const timers = useRef<{
    show?: ReturnType<typeof setTimeout>
    tick?: ReturnType<typeof setInterval>
    started: number
  }>({ started: 0 })

  useEffect(() => {
    const t = timers.current
    const onChange: Listener = (loading) => {
      clearTimeout(t.show)
      clearInterval(t.tick)
      if (loading) {
        t.show = setTimeout(() => {
          t.started = Date.now()
          setProgress(0.1)
          t.tick = setInterval(() => {
            const elapsed = Date.now() - t.started
            // Ease towards 90 % over the duration; finishing jumps to 100 %.
            setProgress(Math.min(0.9, 0.1 + 0.8 * (1 - Math.exp((-3 * elapsed) / duration))))
          }, 100)
        }, throttle)
      } else {
        setProgress((p) => (p === null ? null : 1))
        t.show = setTimeout(() => setProgress(null), 250)
      }
    }
    listeners.add(onChange)
    return () => {
      listeners.delete(onChange)
      clearTimeout(t.show)
      clearInterval(t.tick)
    }
  }, [throttle, duration])

  return (
    <div
      className="loading-bar"
      role="progressbar"
      aria-label="Page loading"
      aria-hidden={progress === null}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={progress === null ? 0 : Math.round(progress * 100)}
      style={{
        height,
        background: color,
        transform: `scaleX(${progress ?? 0})`,
        opacity: progress === null ? 0 : 1,
      }}
    />
  )
}
