/** IP lookup (spec point 3): the visitor IP and its geo. Unknown parts are simply absent. */
export interface Geo {
  postalCode?: string
  stateCode?: string
  cityName?: string
  isp?: string
}

export interface IpLookup {
  value: string
  geo: Geo
}

/** Keeps only non-empty, trimmed, bounded strings. */
export function cleanGeo(geo: Record<string, unknown>): Geo {
  const out: Geo = {}
  for (const key of ['postalCode', 'stateCode', 'cityName', 'isp'] as const) {
    const v = geo[key]
    if (typeof v === 'string' && v.trim()) out[key] = v.trim().slice(0, 128)
  }
  return out
}
