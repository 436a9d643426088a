import type { TrackedUrlParams } from '../../schemas/generated/visitor-record'
import { TRACKED_URL_PARAMS } from '../constants'

/** Longest value kept per parameter (matches the visitor-record schema's ParamValue). */
const MAX_PARAM_LENGTH = 512

/**
 * The tracked URL parameters (spec point 3) of a page: from its query string, plus a `{token}` route
 * parameter, which counts as `token` (a query `token` wins when both are present). Empty values are
 * left out.
 */
export function captureUrlParams(
  search: string | URLSearchParams,
  routeParams: Readonly<Record<string, string>> = {},
): TrackedUrlParams {
  const query = typeof search === 'string' ? new URLSearchParams(search) : search
  const out: TrackedUrlParams = {}
  for (const name of TRACKED_URL_PARAMS) {
    const value = query.get(name) || (name === 'token' ? routeParams.token : undefined)
    if (value) out[name] = value.slice(0, MAX_PARAM_LENGTH)
  }
  return out
}

/** All parameters the paid flag looks at: the query plus the `{token}` route parameter. */
export function paidFlagParams(
  search: string | URLSearchParams,
  routeParams: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const query = typeof search === 'string' ? new URLSearchParams(search) : search
  const out: Record<string, string> = {}
  for (const [k, v] of query) if (!(k in out)) out[k] = v
  if (!out.token && routeParams.token) out.token = routeParams.token
  return out
}

export function hasAnyParam(params: TrackedUrlParams): boolean {
  return Object.keys(params).length > 0
}

export function sameParams(a: TrackedUrlParams, b: TrackedUrlParams): boolean {
  return TRACKED_URL_PARAMS.every((k) => (a[k] ?? '') === (b[k] ?? ''))
}
