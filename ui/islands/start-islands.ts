/**
 * The client entry of static templates (home, landing, legal, review, article, thank-you;
 * docs/decisions/0520) and, with the form island, of funnel steps (funnel-islands.ts, 0524): their HTML never changes after the server rendered it, so nothing hydrates
 * and React never loads. A few plain-DOM islands make the interactive parts work: the menu button at
 * once, and error reports from the start; when the browser is first idle, the rest of the browser
 * runtime (colour mode, build check, tracking with bot detection, the phone lease, a staff preview),
 * the colour-mode select and the phone number. The FAQ is a `<details>` list and needs no code. Colour mode is already applied
 * before first paint by the inline head script (docs/decisions/0501).
 */
import type { Resolution } from '../../engine/render/resolution'
import { readResolution } from '../pages/read-resolution'
import { type ClientRuntime, startClientRuntime } from '../runtime/client-runtime'
import { startErrorReporting } from '../runtime/error-report'
import { mountMenuIsland, mountRuntimeIslands } from './mount-islands'

/** At most this long after load before the runtime starts, however busy the page is. */
const IDLE_TIMEOUT_MS = 1_000

/** What a page adds: islands that need no runtime (at once), and islands that follow it (at idle). */
export interface PageIslands {
  now?(root: HTMLElement, resolution: Resolution): void
  started?(root: HTMLElement, runtime: ClientRuntime): void
}

/** Starts the islands, and the runtime when idle. A failure is logged and rethrown (spec point 8). */
export function startIslands(doc: Document = document, page: PageIslands = {}): void {
  try {
    const { root, resolution } = readResolution(doc)
    // Errors are reported from the start: the runtime that would listen waits for idle.
    const reportError = startErrorReporting(resolution.buildId)
    mountMenuIsland(root, doc)
    page.now?.(root, resolution)
    let started = false
    const start = () => {
      if (started) return
      started = true
      try {
        const runtime = startClientRuntime(resolution, reportError)
        mountRuntimeIslands(root, resolution, runtime, doc)
        page.started?.(root, runtime)
        runtime.hydrated()
      } catch (error) {
        console.error('Failed to mount the app:', error)
        throw error
      }
    }
    if (typeof requestIdleCallback === 'function') requestIdleCallback(start, { timeout: IDLE_TIMEOUT_MS })
    else setTimeout(start, 1)
    // A visitor who leaves before the browser was idle is still counted: start now, and let the
    // tracker see the page go hidden (it sends what it holds then) by telling it once more.
    const hiddenEarly = () => {
      if (started || doc.visibilityState !== 'hidden') return
      start()
      doc.dispatchEvent(new Event('visibilitychange'))
    }
    doc.addEventListener('visibilitychange', hiddenEarly)
  } catch (error) {
    console.error('Failed to mount the app:', error)
    throw error
  }
}
