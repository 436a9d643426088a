import type { Geo } from './geo'

/**
 * Geo headers a CDN or load balancer adds (docs/decisions/0402). Read only when the request came
 * straight from a trusted proxy; first header present wins.
 */
const HEADERS: Record<keyof Geo, readonly string[]> = {
  postalCode: ['cf-postal-code', 'x-geo-postal-code', 'cloudfront-viewer-postal-code'],
  stateCode: ['cf-region-code', 'x-geo-region-code', 'cloudfront-viewer-country-region'],
  cityName: ['cf-ipcity', 'x-geo-city', 'cloudfront-viewer-city'],
  isp: ['x-geo-isp'],
}

export function geoFromHeaders(get: (name: string) => string | undefined): Geo {
  const geo: Geo = {}
  for (const [key, names] of Object.entries(HEADERS) as [keyof Geo, readonly string[]][]) {
    for (const name of names) {
      const v = get(name)?.trim()
      if (v) {
        geo[key] = v.slice(0, 128)
        break
      }
    }
  }
  return geo
}
