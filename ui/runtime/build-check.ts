/**
 * The build check in the browser (spec points 4, 7, 8; docs/decisions/0502). This small facade starts
 * with the runtime: it listens for chunk-load failures, and the runtime's `navigate()` asks it before
 * every in-place navigation. The machine (xstate, build-check-actor.ts) loads when the browser is idle
 * on pages that navigate in place (funnel steps); on other pages every navigation is a full page load
 * that fetches the newest build anyway, so it loads only if a chunk fails there. A chunk failure
 * before it loads is handed over once it runs.
 */
import { isChunkLoadError } from '../../engine/error-report/client-error-report'
import type { BuildCheckPort } from './build-check-actor'
import type { ReportError } from './error-report'

export interface BuildCheck {
  /** Tells the check a navigation to `url` is starting; true when it became a full page load instead. */
  navigating(url: string): boolean
}

/**
 * Installs the listeners; `navigatesInPlace` pages (funnels) load the machine when idle, others only
 * after a chunk failure.
 */
export function startBuildCheck(buildId: string, navigatesInPlace: boolean, report: ReportError): BuildCheck {
  let port: BuildCheckPort | null = null
  let chunkFailedEarly = false
  let loading = false
  const load = () => {
    if (loading) return
    loading = true
    import('./build-check-actor')
      .then((m) => {
        port = m.runBuildCheck(buildId)
        if (chunkFailedEarly) port.chunkFailed()
      })
      .catch((e) => report(e, 'chunk'))
  }
  const chunkFailed = (reason: unknown) => {
    report(reason, 'chunk')
    if (port) port.chunkFailed()
    else {
      chunkFailedEarly = true
      load()
    }
  }
  addEventListener('focus', () => port?.check())
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') port?.check()
  })
  addEventListener('vite:preloadError', (e) => chunkFailed((e as Event & { payload?: unknown }).payload))
  addEventListener('unhandledrejection', (e) => {
    if (isChunkLoadError(e.reason)) chunkFailed(e.reason)
  })
  const navigating = (url: string) => port?.navigate(url) ?? false
  // Back and forward move in place too.
  addEventListener('popstate', () => navigating(location.href))
  if (navigatesInPlace) {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 3_000 })
    else setTimeout(load, 1)
  }
  return { navigating }
}
