import { useEffect, useRef } from 'react'
import {
  LOADING_DURATION_MS,
  LOADING_HEIGHT_PX,
  LOADING_THROTTLE_MS,
  PROGRESS_BAR_COLOR,
} from '../../engine/constants'
import { mountLoadingBar } from '../islands/loading-bar-island'

/**
 * The loading indicator above the page content (spec point 2): the server renders it hidden;
 * `mountLoadingBar` (loading-bar-island.ts, which funnel steps run as an island) shows it when a
 * navigation lasts longer than the throttle.
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
  const bar = useRef<HTMLDivElement>(null)
  useEffect(
    () => (bar.current ? mountLoadingBar(bar.current, { throttle, duration }) : undefined),
    [throttle, duration],
  )
  return (
    <div
      ref={bar}
      className="loading-bar"
      data-island="loading-bar"
      role="progressbar"
      aria-label="Page loading"
      aria-hidden={true}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={0}
      style={{ height, background: color, transform: 'scaleX(0)', opacity: 0 }}
    />
  )
}
