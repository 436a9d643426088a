import type { Geo } from '../../schemas/generated/api-ip'

export type { Geo, IpLookup } from '../../schemas/generated/api-ip'

/** Keeps only non-empty, trimmed, bounded strings. */
export function cleanGeo(geo: Record<string, unknown>): Geo {
  const out: Geo = {}
  for (const key of ['postalCode', 'stateCode', 'cityName', 'isp'] as const) {
    const v = geo[key]
    if (typeof v === 'string' && v.trim()) out[key] = v.trim().slice(0, 128)
  }
  return out
}
