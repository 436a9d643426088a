import type { PageEntry, Snapshot } from '../snapshot/types'
import { matchRoutePattern, type RouteParams, type RoutePattern } from './route-pattern'

export interface RouteMatch {
  page: PageEntry
  params: RouteParams
  pattern: RoutePattern
}

/** Finds the page a brand serves at a pathname (most specific pattern first), or null. */
export function matchRoute(snapshot: Snapshot, brandId: string, pathname: string): RouteMatch | null {
  for (const entry of snapshot.routes.get(brandId) ?? []) {
    const params = matchRoutePattern(entry.pattern, pathname)
    if (params) return { page: snapshot.pages.get(entry.pageKey)!, params, pattern: entry.pattern }
  }
  return null
}
