import type Router from '@koa/router'
import type { ApiCcRun } from '../../../schemas/generated/api-cc-run'
import type { AppDeps } from '../../app-deps'
import { ccRoute } from './cc-route'
import { CC_SCHEMAS, readCcBody } from './schemas'

/** Content-factory runs (issue 16): start, list, read, cancel, turn into an article. */
export function registerRunApi(router: Router, deps: AppDeps): void {
  router.get(
    '/api/cc/branches/:b/runs',
    ccRoute(deps, 'RunList', async (ctx, { content }) => {
      await content.branches.head(ctx.params.b)
      return {
        configured: content.runs.configured,
        model: content.runs.generator?.config.model ?? null,
        runs: await content.runs.list(ctx.params.b),
      }
    }),
  )

  router.post(
    '/api/cc/branches/:b/runs',
    ccRoute(deps, 'CcRunAnswer', async (ctx, { user, content }) => {
      const input = await readCcBody<ApiCcRun>(ctx, CC_SCHEMAS.run)
      ctx.status = 201
      return { run: await content.runs.create(user, ctx.params.b, input) }
    }),
  )

  router.get(
    '/api/cc/runs/:id',
    ccRoute(deps, 'CcRunAnswer', async (ctx, { content }) => ({
      run: await content.runs.get(ctx.params.id),
    })),
  )

  router.post(
    '/api/cc/runs/:id/cancel',
    ccRoute(deps, 'CcRunAnswer', async (ctx, { user, content }) => ({
      run: await content.runs.cancel(user, ctx.params.id),
    })),
  )

  router.post(
    '/api/cc/runs/:id/article',
    ccRoute(deps, 'CcRunArticle', async (ctx, { user, content }) =>
      content.runs.toArticle(user, ctx.params.id),
    ),
  )
}
