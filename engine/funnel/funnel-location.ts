import type { RouteParams } from '../routing/route-pattern'

export interface FunnelLocation {
  /** The path before the step segment: step URLs are `${basePath}/${stepName}`. */
  basePath: string
  /** The step named in the URL, if any (it may be unknown to the funnel). */
  stepParam: string | undefined
  /** The `{token}` route parameter of a token variant route. */
  token: string | undefined
}

/**
 * Reads the funnel's place from the route. On a token variant (`/x/{token}/{step?}`) a single
 * segment after `/x` matches `{token}` (the more specific pattern), so a token that equals a step
 * name with no step is that step.
 */
export function funnelLocation(
  pathname: string,
  params: RouteParams,
  stepNames: readonly string[],
): FunnelLocation {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  const parent = path.slice(0, path.lastIndexOf('/'))
  if (params.step !== undefined) return { basePath: parent, stepParam: params.step, token: params.token }
  if (params.token !== undefined && stepNames.includes(params.token))
    return { basePath: parent, stepParam: params.token, token: undefined }
  return { basePath: path === '/' ? '' : path, stepParam: undefined, token: params.token }
}

/** The URL of a step: no query string (a successful submit drops it). */
export function stepUrl(basePath: string, stepName: string, search = ''): string {
  return `${basePath}/${encodeURIComponent(stepName)}${search}`
}
