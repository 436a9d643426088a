import type { Context } from 'koa'
import type { AppDeps } from '../app-deps'
import type { Store } from '../store/open-store'

/** The data store, or a 503 when the app runs without one (some tests build the app bare). */
export function requireStore(ctx: Context, deps: AppDeps): Store {
  if (!deps.store) ctx.throw(503, 'no data store is configured')
  return deps.store
}
