import {
  PROGRESS_ANIMATION_DELAY_MS,
  PROGRESS_ANIMATION_MS,
  PROGRESS_BAR_COLOR,
} from '../../engine/constants'
import './primitives.css'

export interface ProgressProps {
  /** 0..max; null for an indeterminate bar. */
  value: number | null
  max?: number
  label: string
}

/**
 * Progress bar (spec point 2/9): the value animates over 300 ms after a 10 ms delay, in #d33636.
 * prefers-reduced-motion turns the animation off (primitives.css).
 */
export function Progress({ value, max = 100, label }: ProgressProps) {
  const clamped = value === null ? null : Math.min(max, Math.max(0, value))
  const ratio = clamped === null ? 0 : clamped / max
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={clamped ?? undefined}
      data-state={clamped === null ? 'indeterminate' : clamped >= max ? 'complete' : 'loading'}
    >
      <div
        className="progress-indicator"
        style={
          {
            background: PROGRESS_BAR_COLOR,
            transform: `scaleX(${ratio})`,
            '--progress-duration': `${PROGRESS_ANIMATION_MS}ms`,
            '--progress-delay': `${PROGRESS_ANIMATION_DELAY_MS}ms`,
          } as React.CSSProperties
        }
      />
    </div>
  )
}
