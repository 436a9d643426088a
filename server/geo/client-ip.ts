import { isIP } from 'node:net'

/** Strips the IPv4-mapped IPv6 prefix so 127.0.0.1 and ::ffff:127.0.0.1 compare equal. */
export function normaliseIp(ip: string): string {
  const t = ip.trim()
  return t.toLowerCase().startsWith('::ffff:') && isIP(t.slice(7)) === 4 ? t.slice(7) : t
}

/**
 * The visitor's IP. Only hops added by a trusted proxy count: starting from the socket peer, walk
 * X-Forwarded-For from the right while the current hop is a trusted proxy. Without trusted proxies
 * the socket peer is the visitor (a forged header is ignored).
 */
export function clientIp(
  remoteAddress: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: readonly string[],
): string {
  let current = normaliseIp(remoteAddress ?? '')
  if (!trustedProxies.length || !forwardedFor) return current
  const trusted = new Set(trustedProxies.map(normaliseIp))
  const hops = forwardedFor
    .split(',')
    .map((h) => normaliseIp(h))
    .filter((h) => isIP(h) !== 0)
  while (trusted.has(current) && hops.length) current = hops.pop()!
  return current
}

/** Whether the request came straight from a trusted proxy (so its geo headers can be believed). */
export function fromTrustedProxy(
  remoteAddress: string | undefined,
  trustedProxies: readonly string[],
): boolean {
  return trustedProxies.map(normaliseIp).includes(normaliseIp(remoteAddress ?? ''))
}

/** Loopback, private, link-local, CGNAT and unique-local addresses have no geo. */
export function isPublicIp(ip: string): boolean {
  const v = isIP(ip)
  if (v === 4) {
    const [a, b] = ip.split('.').map(Number)
    if (a === 10 || a === 127 || a === 0 || a >= 224) return false
    if (a === 169 && b === 254) return false
    if (a === 172 && b >= 16 && b <= 31) return false
    if (a === 192 && b === 168) return false
    if (a === 100 && b >= 64 && b <= 127) return false
    return true
  }
  if (v === 6) {
    const l = ip.toLowerCase()
    return !(l === '::1' || l === '::' || /^f[cd]/.test(l) || /^fe[89ab]/.test(l))
  }
  return false
}
