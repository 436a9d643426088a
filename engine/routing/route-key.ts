/**
 * The index page is keyed per route (spec point 2): a short, stable key from the brand, the route
 * path (with its parameter values) and the query, so React remounts the page when the route changes.
 */
import { ROUTE_KEY_HASH_PREFIX_LENGTH } from '../constants'
import { hashString } from '../util/hash'

export function routeKey(
  brandId: string | null | undefined,
  pathname: string,
  routeKeyOverride?: string,
): string {
  const source = routeKeyOverride ?? `${brandId ?? ''}:${pathname}`
  return hashString(source).slice(0, ROUTE_KEY_HASH_PREFIX_LENGTH)
}
