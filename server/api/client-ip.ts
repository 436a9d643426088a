import type { Context } from 'koa'

const normalise = (ip: string) => ip.trim().replace(/^::ffff:/, '')

/**
 * The client's IP. X-Forwarded-For is believed only when the connection comes from a trusted proxy
 * (config.trustedProxies), and then only up to the first address that is not itself a trusted proxy:
 * anything further left could have been written by the client.
 */
export function clientIp(ctx: Context, trustedProxies: readonly string[]): string | null {
  const remote = ctx.req.socket.remoteAddress ? normalise(ctx.req.socket.remoteAddress) : null
  if (!remote || !trustedProxies.includes(remote)) return remote
  const chain = (ctx.get('x-forwarded-for') || '').split(',').map(normalise).filter(Boolean)
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!trustedProxies.includes(chain[i])) return chain[i]
  }
  return chain[0] ?? remote
}
