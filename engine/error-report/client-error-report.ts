/**
 * The client error report (spec point 9): what the browser sends to POST /api/client-errors, with
 * the stack trimmed to ERROR_REPORT_MAX_FRAMES frames and every line to ERROR_REPORT_MAX_LINE_LENGTH
 * characters. The server applies the same trimming again, so a hand-made report cannot flood logs.
 */
import type { ClientErrorReport as ClientErrorReportBody } from '../../schemas/generated/client-error-report'
import { ERROR_REPORT_MAX_FRAMES, ERROR_REPORT_MAX_LINE_LENGTH } from '../constants'

/** A report as the browser sends it: the body schema's type, with the stack always present. */
export type ClientErrorReport = ClientErrorReportBody & { stack: string }

export function trimLine(line: string): string {
  return line.length > ERROR_REPORT_MAX_LINE_LENGTH ? line.slice(0, ERROR_REPORT_MAX_LINE_LENGTH) : line
}

/** Keeps the message line(s) before the frames, then at most ERROR_REPORT_MAX_FRAMES frames. */
export function trimStack(stack: string): string {
  const lines = stack.split(/\r?\n/)
  const out: string[] = []
  let frames = 0
  for (const line of lines) {
    const isFrame = /^\s*at\s|@/.test(line)
    if (isFrame) {
      if (frames >= ERROR_REPORT_MAX_FRAMES) continue
      frames++
    }
    out.push(trimLine(line))
  }
  return out.join('\n')
}

/** Builds a report from anything thrown. */
export function reportOf(
  error: unknown,
  kind: ClientErrorReport['kind'],
  url: string,
  buildId?: string,
): ClientErrorReport {
  const e = error instanceof Error ? error : new Error(typeof error === 'string' ? error : safeString(error))
  return {
    message: trimLine(`${e.name}: ${e.message}`.split('\n')[0] ?? ''),
    stack: trimStack(e.stack ?? ''),
    kind,
    url: trimLine(url),
    ...(buildId ? { buildId } : {}),
  }
}

function safeString(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v)
  } catch {
    return String(v)
  }
}

const CHUNK_ERROR =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported|Unable to preload/i

/** True for the errors browsers raise when a code-split chunk cannot be loaded (e.g. after a deploy). */
export function isChunkLoadError(reason: unknown): boolean {
  const message = reason instanceof Error ? reason.message : String(reason ?? '')
  return CHUNK_ERROR.test(message)
}
