import type { Context } from 'koa'
import type { AppDeps } from '../app-deps'

/**
 * Operator endpoints (/api/_ops/*) answer only requests that came over the operator socket in DATA_DIR
 * (docs/decisions/0722): whoever may open it may read the data folder anyway. On the site port, under
 * any Host and with any header, they get the same 404 as an unknown API.
 */
export function requireOpsChannel(ctx: Context, deps: AppDeps): void {
  if (!deps.opsChannel?.carries(ctx.req)) ctx.throw(404, `No API at ${ctx.method} ${ctx.path}`)
}
