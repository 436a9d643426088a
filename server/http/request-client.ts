/**
 * Who sent a request — the one rule (docs/decisions/0700). X-Forwarded-For, -Host and -Proto are
 * believed only when the connection comes from a proxy listed in TRUSTED_PROXIES; from anyone else
 * they change nothing. Koa's own ctx.ip / ctx.host / ctx.protocol are not used (app.proxy stays off:
 * Koa would take the leftmost X-Forwarded-For, which the client writes).
 */
import { isIP } from 'node:net'
import type { Context, Middleware } from 'koa'

export interface RequestClient {
  /** The visitor's IP: the socket peer, or the first hop left of the trusted proxies. */
  ip: string
  /** Host (with port) the visitor asked for; '' when the header is not a host name. */
  host: string
  protocol: 'http' | 'https'
  /** The socket peer is a trusted proxy (its geo headers may be believed). */
  viaTrustedProxy: boolean
}

/** Strips the IPv4-mapped IPv6 prefix so 127.0.0.1 and ::ffff:127.0.0.1 compare equal. */
export function normaliseIp(ip: string): string {
  const t = ip.trim()
  return t.toLowerCase().startsWith('::ffff:') && isIP(t.slice(7)) === 4 ? t.slice(7) : t.toLowerCase()
}

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?'
/** A host name (a trailing dot allowed) or a bracketed IPv6 address, with an optional port. */
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*\\.?|\\[[0-9a-f:.]+\\])(?::\\d{1,5})?$`, 'i')

/** Works out the client of a request from its socket and headers. */
export function requestClient(
  remoteAddress: string | undefined,
  header: (name: string) => string | undefined,
  encrypted: boolean,
  trusted: ReadonlySet<string>,
): RequestClient {
  const peer = normaliseIp(remoteAddress ?? '')
  const viaTrustedProxy = trusted.has(peer)
  let ip = peer
  let host = header('host') ?? ''
  let protocol: RequestClient['protocol'] = encrypted ? 'https' : 'http'
  if (viaTrustedProxy) {
    // Walk X-Forwarded-For from the right while the hop is one of ours; the first other is the client.
    const hops = (header('x-forwarded-for') ?? '')
      .split(',')
      .map(normaliseIp)
      .filter((h) => isIP(h) !== 0)
    while (trusted.has(ip) && hops.length) ip = hops.pop()!
    const fHost = firstValue(header('x-forwarded-host'))
    if (fHost) host = fHost
    const fProto = firstValue(header('x-forwarded-proto'))?.toLowerCase()
    if (fProto === 'https' || fProto === 'http') protocol = fProto
  }
  host = host.trim()
  return { ip, host: HOST.test(host) ? host.toLowerCase() : '', protocol, viaTrustedProxy }
}

function firstValue(v: string | undefined): string | undefined {
  const first = v?.split(',')[0]?.trim()
  return first || undefined
}

/** Middleware: works out the client once per request (read it with clientOf). */
export function requestClientMiddleware(trustedProxies: readonly string[]): Middleware {
  const trusted = new Set(trustedProxies.map(normaliseIp))
  return (ctx, next) => {
    const client = requestClient(
      ctx.req.socket.remoteAddress,
      (n) => ctx.get(n) || undefined,
      'encrypted' in ctx.req.socket && !!ctx.req.socket.encrypted,
      trusted,
    )
    ctx.state.client = client
    // Secure cookies follow the same rule (Koa would look at its own ctx.secure).
    if (client.protocol === 'https') ctx.cookies.secure = true
    return next()
  }
}

/** The client of this request (set by requestClientMiddleware, which createApp installs first). */
export function clientOf(ctx: Context): RequestClient {
  const c = ctx.state.client as RequestClient | undefined
  if (!c) throw new Error('requestClientMiddleware did not run for this request')
  return c
}

/**
 * A staff cookie's name for this request: over HTTPS (the connection's own, or a trusted proxy's
 * X-Forwarded-Proto) `__Host-` prefixed, so the browser keeps it Secure, host-only and for path /
 * (docs/decisions/0331); over plain HTTP (development, tests) as is.
 */
export function hostCookieName(ctx: Context, name: string): string {
  return clientOf(ctx).protocol === 'https' ? `__Host-${name}` : name
}

/** `https://host` of the request, for absolute URLs. */
export function originOf(ctx: Context): string {
  const c = clientOf(ctx)
  return `${c.protocol}://${c.host}`
}
