import type { EventCookies } from '../../schemas/generated/analytics-event'
import { FB_BROWSER_COOKIE, GA_CLIENT_COOKIE } from '../constants'

/** `document.cookie` → name/value pairs (first occurrence wins, values URI-decoded when possible). */
export function parseCookies(header: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const name = part.slice(0, eq).trim()
    if (!name || name in out) continue
    const raw = part.slice(eq + 1).trim()
    try {
      out[name] = decodeURIComponent(raw)
    } catch {
      out[name] = raw
    }
  }
  return out
}

/** Name of the per-measurement session cookie: `_ga_` + the measurement id without its `G-` prefix. */
export function measurementSessionCookie(measurementId: string): string {
  return `${GA_CLIENT_COOKIE}_${measurementId.replace(/^G-/, '')}`
}

/**
 * The cookies every event carries (spec point 3): the two analytics ids (_ga, _fbp) and, for a
 * brand with a measurement id, its session cookie. Missing cookies are null.
 */
export function analyticsCookies(header: string, measurementId: string | null | undefined): EventCookies {
  const all = parseCookies(header)
  const out: EventCookies = {
    [GA_CLIENT_COOKIE]: all[GA_CLIENT_COOKIE] ?? null,
    [FB_BROWSER_COOKIE]: all[FB_BROWSER_COOKIE] ?? null,
  }
  if (measurementId) {
    const name = measurementSessionCookie(measurementId)
    out[name] = all[name] ?? null
  }
  return out
}
