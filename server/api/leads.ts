import type Router from '@koa/router'
import type { AppDeps } from '../app-deps'
import { HttpError } from '../http/http-error'
import { leadStory } from '../store/lead-store'
import { requireOpsToken } from './ops-auth'
import { requireStore } from './require-store'

/** Longest key `npm run leads -- show` looks up (ids are at most 64 characters). */
const LEAD_KEY_MAX = 128

/** For `npm run leads` while this server holds the PGlite folder: one lead's story as JSON. */
export function leadsApi(router: Router, deps: AppDeps): void {
  router.get('/api/_ops/leads', async (ctx) => {
    requireOpsToken(ctx, deps)
    const store = requireStore(ctx, deps)
    const key = typeof ctx.query.key === 'string' ? ctx.query.key.trim() : ''
    if (!key || key.length > LEAD_KEY_MAX)
      throw new HttpError(
        400,
        `key: a session id, anonymous or user id, or phone number is required (at most ${LEAD_KEY_MAX} characters)`,
      )
    ctx.set('Cache-Control', 'no-store')
    ctx.body = await leadStory(store.db, key)
  })
}
