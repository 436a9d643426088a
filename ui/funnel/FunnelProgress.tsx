import { PROGRESS_ANIMATION_DELAY_MS, PROGRESS_ANIMATION_MS } from '../../engine/constants'
import { fillText } from '../../engine/funnel/validate-field'
import type { FunnelUiText } from '../../schemas/generated/ui-text'

/**
 * "Step N of M" (in the funnel's language) and a bar animated over 300 ms after 10 ms (spec point 2). The animation is a CSS
 * transition, so prefers-reduced-motion turns it off (base.css) and no timer runs in JavaScript.
 */
export function FunnelProgress({ step, total, text }: { step: number; total: number; text: FunnelUiText }) {
  const value = step / total
  return (
    <div className="funnel-progress">
      <p className="funnel-progress-label" data-testid="funnel-step-count">
        {fillText(text.stepOf, { step, total })}
      </p>
      <div
        className="funnel-progress-track"
        role="progressbar"
        aria-label={text.progressLabel}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(value * 100)}
      >
        <span
          className="funnel-progress-fill"
          style={
            {
              transform: `scaleX(${value})`,
              '--progress-duration': `${PROGRESS_ANIMATION_MS}ms`,
              '--progress-delay': `${PROGRESS_ANIMATION_DELAY_MS}ms`,
            } as React.CSSProperties
          }
        />
      </div>
    </div>
  )
}
