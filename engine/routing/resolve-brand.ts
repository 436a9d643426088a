/** Host header → brand id (spec point 1: each brand is served on its own domains). */

export interface BrandDomains {
  id: string
  domains: readonly string[]
}

export interface HostIndex {
  exact: ReadonlyMap<string, string>
  /** Wildcard suffixes (".medicare10.com"), longest first. */
  wildcards: readonly { suffix: string; brandId: string }[]
  ids: ReadonlySet<string>
}

export function buildHostIndex(brands: readonly BrandDomains[]): HostIndex {
  const exact = new Map<string, string>()
  const wildcards: { suffix: string; brandId: string }[] = []
  for (const b of brands) {
    for (const d of b.domains) {
      const domain = d.toLowerCase()
      if (domain.startsWith('*.')) wildcards.push({ suffix: domain.slice(1), brandId: b.id })
      else exact.set(domain, b.id)
    }
  }
  wildcards.sort((a, b) => b.suffix.length - a.suffix.length)
  return { exact, wildcards, ids: new Set(brands.map((b) => b.id)) }
}

/** Lower-cases, strips the port, a trailing dot and IPv6 brackets. */
export function normalizeHost(hostHeader: string | undefined | null): string {
  if (!hostHeader) return ''
  let host = hostHeader.trim().toLowerCase()
  if (host.startsWith('[')) {
    const end = host.indexOf(']')
    return end > 0 ? host.slice(1, end) : host
  }
  const colon = host.lastIndexOf(':')
  if (colon >= 0 && /^\d*$/.test(host.slice(colon + 1))) host = host.slice(0, colon)
  while (host.endsWith('.')) host = host.slice(0, -1)
  return host
}

/** Exact domains first, then wildcards (most specific first), then `<id>.localhost`. */
export function resolveBrandId(index: HostIndex, hostHeader: string | undefined | null): string | null {
  const host = normalizeHost(hostHeader)
  if (!host) return null
  const exact = index.exact.get(host)
  if (exact) return exact
  for (const w of index.wildcards) {
    if (host.endsWith(w.suffix) && host.length > w.suffix.length) return w.brandId
  }
  const m = /^([a-z0-9]+)\.localhost$/.exec(host)
  if (m && index.ids.has(m[1])) return m[1]
  return null
}

/** A bare local host (localhost, 127.0.0.1, ::1): where the brand index is offered in development. */
export function isBareLocalHost(hostHeader: string | undefined | null): boolean {
  const host = normalizeHost(hostHeader)
  return host === 'localhost' || host === '127.0.0.1' || host === '::1'
}
