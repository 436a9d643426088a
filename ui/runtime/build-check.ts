/**
 * The build check in the browser (spec points 4, 7, 8; docs/decisions/0502). This small facade is
 * installed at hydration: it listens for chunk-load failures and History API navigations at once.
 * The machine (xstate, build-check-actor.ts) loads when the browser is idle on pages that navigate
 * in place (funnel steps); on other pages every navigation is a full page load that fetches the
 * newest build anyway, so it loads only if a chunk fails there. Events before it loads are replayed.
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
  else {
    pendingChunkFailure = true
    loadMachine?.()
  }
}

let loadMachine: (() => void) | null = null

/**
 * Installs the listeners; `navigatesInPlace` pages (funnels) load the machine when idle, others only
 * after a chunk failure.
 */
export function startBuildCheck(buildId: string, navigatesInPlace: boolean): void {
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
  const load = () => {
    loadMachine = null
    import('./build-check-actor')
      .then((m) => m.runBuildCheck(buildId))
      .catch((e) => reportClientError(e, 'chunk'))
  }
  loadMachine = load
  if (!navigatesInPlace) return
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 3_000 })
  else setTimeout(load, 1)
}
