import { timingSafeEqual } from 'node:crypto'
import type { Context } from 'koa'
import type { AppDeps } from '../app-deps'

/**
 * Operator endpoints (/api/_ops/*) answer only with the token from DATA_DIR/server.json in the
 * x-ops-token header: whoever can read the data folder may read the data. Anyone else gets the
 * same 404 as for an unknown API.
 */
export function requireOpsToken(ctx: Context, deps: AppDeps): void {
  const expected = deps.opsToken
  const given = ctx.get('x-ops-token')
  const ok =
    !!expected &&
    !!given &&
    Buffer.byteLength(given) === Buffer.byteLength(expected) &&
    timingSafeEqual(Buffer.from(given), Buffer.from(expected))
  if (!ok) ctx.throw(404, `No API at ${ctx.method} ${ctx.path}`)
}
