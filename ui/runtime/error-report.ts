/**
 * Reports client errors to POST /api/client-errors (spec point 9) so operators see what visitors hit.
 * Trimming happens here and again on the server; a page sends at most a few distinct reports.
 */
import { CLIENT_ERRORS_PATH } from '../../engine/constants'
import {
  type ClientErrorReport,
  isChunkLoadError,
  reportOf,
} from '../../engine/error-report/client-error-report'

const MAX_REPORTS_PER_PAGE = 10
const sent = new Set<string>()
let buildId: string | undefined

function send(report: ClientErrorReport): void {
  const key = `${report.kind}:${report.message}`
  if (sent.has(key) || sent.size >= MAX_REPORTS_PER_PAGE) return
  sent.add(key)
  const body = JSON.stringify(report)
  try {
    if (navigator.sendBeacon?.(CLIENT_ERRORS_PATH, new Blob([body], { type: 'application/json' }))) return
  } catch {}
  fetch(CLIENT_ERRORS_PATH, {
    method: 'POST',
    body,
    keepalive: true,
    headers: { 'content-type': 'application/json' },
  }).catch(() => {})
}

export function reportClientError(error: unknown, kind: ClientErrorReport['kind']): void {
  send(reportOf(error, kind, location.pathname + location.search, buildId))
}

/** Listens for uncaught errors and unhandled rejections. */
export function startErrorReporting(currentBuildId: string | undefined): void {
  buildId = currentBuildId
  addEventListener('error', (e) => {
    // Resource load errors (img, script) have no error object; the build check handles chunks.
    if (e.error !== undefined || e.message) reportClientError(e.error ?? e.message, 'error')
  })
  addEventListener('unhandledrejection', (e) => {
    // Chunk failures are reported (once, as kind "chunk") by the build check.
    if (!isChunkLoadError(e.reason)) reportClientError(e.reason, 'rejection')
  })
}
