/**
 * The build check in the browser (spec points 4, 7, 8; docs/decisions/0502). This small facade is
 * installed at hydration: it listens for chunk-load failures and History API navigations at once,
 * while the machine (xstate) loads when the browser is idle (build-check-actor.ts), off the critical
 * path of a landing page. Events that arrive before it loads are replayed.
 */
import { isChunkLoadError } from '../../engine/error-report/client-error-report'
import { reportClientError } from './error-report'

export interface BuildCheckPort {
  check(): void
  chunkFailed(): void
  /** true when the navigation became a full page load. */
  navigate(url: string): boolean
}

let port: BuildCheckPort | null = null
let pendingChunkFailure = false
let installed = false

/** Called by build-check-actor.ts once the machine runs. */
export function connectBuildCheck(p: BuildCheckPort): void {
  port = p
  if (pendingChunkFailure) p.chunkFailed()
}

/** Tells the build check a navigation is starting; true when it became a full page load instead. */
export function notifyNavigation(url: string): boolean {
  return port?.navigate(url) ?? false
}

/** Lets code that catches its own import() failures report them. */
export function notifyChunkFailure(reason: unknown): void {
  reportClientError(reason, 'chunk')
  if (port) port.chunkFailed()
  else pendingChunkFailure = true
}

/** Installs the listeners and loads the machine when idle. */
export function startBuildCheck(buildId: string): void {
  if (installed) return
  installed = true
  addEventListener('focus', () => port?.check())
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') port?.check()
  })
  addEventListener('vite:preloadError', (e) =>
    notifyChunkFailure((e as Event & { payload?: unknown }).payload),
  )
  addEventListener('unhandledrejection', (e) => {
    if (isChunkLoadError(e.reason)) notifyChunkFailure(e.reason)
  })
  // Funnel steps navigate with the History API: a pending reload takes over those navigations.
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method]
    history[method] = function (this: History, data: unknown, unused: string, url?: string | URL | null) {
      if (url != null && notifyNavigation(new URL(url, location.href).href)) return
      return original.call(this, data, unused, url)
    }
  }
  addEventListener('popstate', () => notifyNavigation(location.href))
  const load = () =>
    import('./build-check-actor').then((m) => m.runBuildCheck(buildId)).catch((e) => notifyChunkFailure(e))
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 3_000 })
  else setTimeout(load, 1)
}
