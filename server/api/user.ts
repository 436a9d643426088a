import type Router from '@koa/router'
import { API_BODY_LIMIT_BYTES } from '../../engine/constants'
import type { VisitorRecord } from '../../schemas/generated/visitor-record'
import type { AppDeps } from '../app'
import { getVisitor, upsertVisitor } from '../store/visitor-store'
import { clientIp } from './client-ip'
import { assertSchema, readJsonBody } from './json-body'
import { requireOpsToken } from './ops-auth'
import { requireStore } from './require-store'

/** POST /api/user/set (spec point 7): upserts the visitor record; an older change never wins. */
export function userApi(router: Router, deps: AppDeps): void {
  router.post('/api/user/set', async (ctx) => {
    const store = requireStore(ctx, deps)
    const body = await readJsonBody(ctx, API_BODY_LIMIT_BYTES)
    const record = assertSchema<VisitorRecord>(ctx, 'visitor-record.schema.json', body)
    await upsertVisitor(store.db, record, clientIp(ctx, deps.config.trustedProxies))
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { ok: true }
  })

  // For operators and the e2e suite: the stored record of one visitor.
  router.get('/api/_ops/visitors/:userId', async (ctx) => {
    requireOpsToken(ctx, deps)
    const record = await getVisitor(requireStore(ctx, deps).db, ctx.params.userId)
    if (!record) ctx.throw(404, `no visitor record for ${ctx.params.userId}`)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = record
  })
}
