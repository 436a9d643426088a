import type Router from '@koa/router'
import { IMPACT_VISITS_DAYS } from '../../../engine/control-center/gates/gate-constants'
import type { AppDeps } from '../../app-deps'
import { pageVisits } from '../../store/page-visits'
import { ccRoute } from './cc-route'

/**
 * The publish gates' Impact tab (CONTROL-CENTER §7 items 2 and 3): what publishing the branch now
 * would change — the path diff of each changed funnel and the shared-step impact — with last week's
 * visits per page and brand from the events store. The blocking gates' errors come with it (they
 * are also in GET …/checks).
 */
export function registerGateApi(router: Router, deps: AppDeps): void {
  router.get(
    '/api/cc/branches/:b/impact',
    ccRoute(deps, 'BranchImpact', async (ctx, { content, store }) => {
      const result = await content.publisher.check(ctx.params.b)
      const pages = [...new Set(result.impact?.steps.flatMap((s) => s.pages.map((p) => p.page)) ?? [])]
      const visits = await pageVisits(store.db, pages)
      return {
        commit: result.commit,
        ok: result.errors.length === 0 && result.conflicts.length === 0,
        errors: result.errors,
        conflicts: result.conflicts,
        impact: result.impact,
        visits: {
          days: IMPACT_VISITS_DAYS,
          pages: visits,
          total: visits.reduce((n, v) => n + v.visits, 0),
        },
      }
    }),
  )
}
