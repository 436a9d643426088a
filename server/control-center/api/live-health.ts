import type Router from '@koa/router'
import type { ApiCcLiveRestore } from '../../../schemas/generated/api-cc-live-restore'
import type { AppDeps } from '../../app-deps'
import { restoreLive } from '../services/live-restore'
import { latestPublications } from '../store/publication-store'
import { ccRoute } from './cc-route'
import { CC_SCHEMAS, readCcBody } from './schemas'

/** Live's health for the control center's banner, and restoring live from a refused commit (docs/decisions/0610). */
export function registerLiveHealthApi(router: Router, deps: AppDeps): void {
  router.get(
    '/api/cc/live',
    ccRoute(deps, 'CcLive', async (_ctx, { content, store }) => {
      // A push that moved the ref since the last reconcile is checked now, so the banner is current.
      if (await content.live.publishedMoved()) await content.fleet.refresh()
      const [latest] = await latestPublications(store.db, 1)
      return {
        live: content.live.health(),
        movedOutside:
          latest?.kind === 'outside'
            ? {
                publication: latest.id,
                from: latest.oldCommit,
                to: latest.newCommit,
                at: latest.at.toISOString(),
              }
            : null,
      }
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
