import { isIP } from 'node:net'

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
