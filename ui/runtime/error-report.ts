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
import { beaconJson } from './beacon'

const MAX_REPORTS_PER_PAGE = 10

export type ReportError = (error: unknown, kind: ClientErrorReport['kind']) => void

/** Listens for uncaught errors and unhandled rejections; returns the reporter for caught ones. */
export function startErrorReporting(buildId: string | undefined): ReportError {
  const sent = new Set<string>()
  const send = (report: ClientErrorReport) => {
    const key = `${report.kind}:${report.message}`
    if (sent.has(key) || sent.size >= MAX_REPORTS_PER_PAGE) return
    sent.add(key)
    beaconJson(CLIENT_ERRORS_PATH, JSON.stringify(report))
  }
  const report: ReportError = (error, kind) =>
    send(reportOf(error, kind, location.pathname + location.search, buildId))
  addEventListener('error', (e) => {
    // Resource load errors (img, script) have no error object; the build check handles chunks.
    if (e.error !== undefined || e.message) report(e.error ?? e.message, 'error')
  })
  addEventListener('unhandledrejection', (e) => {
    // Chunk failures are reported (once, as kind "chunk") by the build check.
    if (!isChunkLoadError(e.reason)) report(e.reason, 'rejection')
  })
  return report
}
