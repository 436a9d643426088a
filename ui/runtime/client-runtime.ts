/**
 * Starts the client runtime after hydration: colour mode, error reporting and the build check.
 * Called once from ui/pages/hydrate.tsx.
 */
import type { Resolution } from '../../engine/render/resolution'
import { startBuildCheck } from './build-check'
import { startColorMode } from './color-mode'
import { startErrorReporting } from './error-report'

export function startClientRuntime(resolution: Resolution): void {
  startErrorReporting(resolution.buildId)
  startColorMode(resolution.page?.colorMode)
  // Funnel steps (and the style guide's demo) navigate with the History API.
  const navigatesInPlace = resolution.view === 'funnel' || resolution.view === 'primitives'
  if (resolution.buildId) startBuildCheck(resolution.buildId, navigatesInPlace)
}
