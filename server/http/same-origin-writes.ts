/**
 * State-changing API requests (POST, PUT, PATCH, DELETE under /api/) must come from our own pages:
 * an `Origin` of another scheme, host or port (or, without one, `Sec-Fetch-Site`) naming another site is refused with 403, and a
 * body must be JSON (415) — a cross-site HTML form can send neither, so it cannot reach them.
 * Requests without those headers (curl, server-to-server) pass: they carry no visitor's cookies.
 * Upload paths (`rawBodyPaths`) take other bodies; their handler requires an Origin and a type a
 * form cannot send.
 */
import type { Context, Middleware } from 'koa'
import { HttpError } from './http-error'
import { discardBody } from './read-json'
import { clientOf } from './request-client'

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export function sameOriginWrites(
  opts: {
    /** Paths that take a raw body (image uploads): their handler checks the Content-Type itself. */
    rawBodyPaths?: readonly RegExp[]
  } = {},
): Middleware {
  const raw = opts.rawBodyPaths ?? []
  return (ctx, next) => {
    if (!STATE_CHANGING.has(ctx.method) || !ctx.path.startsWith('/api/')) return next()
    const origin = ctx.get('origin')
    if (origin) {
      // Scheme, host and port, as a browser compares origins (issue 36). Behind a proxy that ends TLS,
      // the scheme is what a proxy in TRUSTED_PROXIES says (X-Forwarded-Proto).
      if (!sameOrigin(origin, ctx)) {
        discardBody(ctx)
        throw new HttpError(403, `Origin: ${origin} may not change data on this site`, { close: true })
      }
    } else if (ctx.get('sec-fetch-site') === 'cross-site') {
      discardBody(ctx)
      throw new HttpError(403, 'Sec-Fetch-Site: a cross-site request may not change data on this site', {
        close: true,
      })
    }
    const hasBody = Number(ctx.get('content-length') || 0) > 0 || !!ctx.get('transfer-encoding')
    if (hasBody && !ctx.is('application/json') && !raw.some((r) => r.test(ctx.path))) {
      discardBody(ctx)
      throw new HttpError(
        415,
        `Content-Type: send the body as application/json (got ${ctx.get('content-type') || 'none'})`,
        { close: true },
      )
    }
    return next()
  }
}

/**
 * Whether `origin` (an Origin header, or a Referer's URL) is this request's own origin: scheme, host
 * and port alike. The one comparison of the server's same-origin checks.
 */
export function sameOrigin(origin: string, ctx: Context): boolean {
  const client = clientOf(ctx)
  if (origin === 'null' || !client.host) return false
  try {
    // URL's origin drops a default port (:80 for http, :443 for https) on both sides alike.
    return new URL(origin).origin === new URL(`${client.protocol}://${client.host}`).origin
  } catch {
    return false
  }
}
