/**
 * Development only: when an edit breaks the definitions, the browser says so. Open pages get Vite's
 * error overlay at once (over Vite's websocket); a page loaded while the definitions are broken gets
 * the same overlay injected into its HTML. Each line is `file:line:col  /pointer  message`, and each
 * place is also a link that opens the editor there. Fixing the file reloads the page, which clears the overlay. The
 * site itself keeps serving the last valid snapshot (architecture decision 2).
 */
import { resolve } from 'node:path'
import type { Middleware } from 'koa'
import { formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import type { DefinitionError } from '../../engine/snapshot/types'
import type { SnapshotStore } from '../content/snapshot-store'

/** The shape Vite's overlay shows (a subset of its ErrorPayload['err']). */
export interface OverlayError {
  message: string
  stack: string
  plugin: string
}

export const OVERLAY_PLUGIN = 'funnelworks definitions'

export function definitionsOverlayError(
  errors: readonly DefinitionError[],
  projectRoot: string,
): OverlayError {
  const n = errors.length
  const summary = `The definitions have ${n} error${n === 1 ? '' : 's'}; the site keeps serving the last valid version until ${n === 1 ? 'it is' : 'they are'} fixed.`
  return {
    plugin: OVERLAY_PLUGIN,
    // The lines as `npm run validate` prints them (the overlay wraps them)…
    message: `${summary}\n\n${errors.map(formatDefinitionError).join('\n')}`,
    // …and each place again as an absolute path, which Vite turns into a link that opens the editor.
    stack: [...new Set(errors.map((e) => `${resolve(projectRoot, e.file)}:${e.line}:${e.column}`))].join(
      '\n',
    ),
  }
}

/** The script that shows the overlay on a page loaded while the definitions are broken. */
export function overlayScript(err: OverlayError): string {
  const json = JSON.stringify(err).replace(/</g, '\\u003c')
  return `<script type="module" data-fw-definitions-overlay>import { ErrorOverlay } from '/@vite/client'
document.body.appendChild(new ErrorOverlay(${json}))</script>`
}

/** Injects the overlay into every HTML page while the snapshot store reports errors. */
export function devOverlay(snapshots: SnapshotStore): Middleware {
  return async (ctx, next) => {
    await next()
    const errors = snapshots.lastErrors
    if (!errors.length || !ctx.response.is('html')) return
    const body =
      typeof ctx.body === 'string' ? ctx.body : Buffer.isBuffer(ctx.body) ? ctx.body.toString('utf8') : null
    if (body === null || !body.includes('</body>')) return
    ctx.body = body.replace(
      '</body>',
      `${overlayScript(definitionsOverlayError(errors, snapshots.projectRoot))}</body>`,
    )
  }
}

interface HotChannel {
  send(payload: { type: 'full-reload' } | { type: 'error'; err: OverlayError }): void
}

/** Tells open pages: the overlay when a build is refused, a reload when the definitions are fixed. */
export function wireDevReload(snapshots: SnapshotStore, ws: HotChannel): void {
  snapshots.onChange(() => ws.send({ type: 'full-reload' }))
  snapshots.onProblems((errors, { swapped }) => {
    if (errors.length) ws.send({ type: 'error', err: definitionsOverlayError(errors, snapshots.projectRoot) })
    // Fixed back to the snapshot still serving: nothing swapped, but the overlay must go.
    else if (!swapped) ws.send({ type: 'full-reload' })
  })
}
