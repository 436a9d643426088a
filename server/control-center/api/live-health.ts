import type Router from '@koa/router'
import type { ApiCcLiveRestore } from '../../../schemas/generated/api-cc-live-restore'
import type { AppDeps } from '../../app-deps'
import { restoreLive } from '../services/live-restore'
import { ccRoute } from './cc-route'
import { CC_SCHEMAS, readCcBody } from './schemas'

/** Live's health for the control center's banner, and restoring live from a refused commit (docs/decisions/0610). */
export function registerLiveHealthApi(router: Router, deps: AppDeps): void {
  router.get(
    '/api/cc/live',
    ccRoute(deps, 'CcLive', async (_ctx, { content }) => {
      // A push that moved the ref since the last reconcile is checked now, so the banner is current.
      if (await content.live.publishedMoved()) await content.fleet.refresh()
      return { live: content.live.health() }
    }),
  )

  router.post(
    '/api/cc/live/restore',
    ccRoute(deps, 'CcLiveRestored', async (ctx, { user, content, store }) => {
      const input = await readCcBody<ApiCcLiveRestore>(ctx, CC_SCHEMAS.liveRestore)
      const restored = await restoreLive(
        { repository: content.repository, live: content.live, db: store.db },
        user,
        input.refused,
      )
      return { restored, live: content.live.health() }
    }),
  )
}
