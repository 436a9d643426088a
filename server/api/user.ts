import type Router from '@koa/router'
import { API_BODY_LIMIT_BYTES } from '../../engine/constants'
import type { VisitorRecord } from '../../schemas/generated/visitor-record'
import type { AppDeps } from '../app-deps'
import { HttpError } from '../http/http-error'
import { readJson } from '../http/read-json'
import { clientOf } from '../http/request-client'
import { storeRefusal } from '../store/store-refusal'
import { getVisitor, upsertVisitor } from '../store/visitor-store'
import { requireOpsChannel } from './ops-auth'
import { requireStore } from './require-store'

/** POST /api/user/set (spec point 7): upserts the visitor record; an older change never wins. */
export function userApi(router: Router, deps: AppDeps): void {
  router.post('/api/user/set', async (ctx) => {
    const store = requireStore(ctx, deps)
    const record = await readJson<VisitorRecord>(ctx, {
      limit: API_BODY_LIMIT_BYTES,
      schema: 'visitor-record.schema.json',
    })
    try {
      await upsertVisitor(store.db, record, clientOf(ctx).ip)
    } catch (e) {
      const refused = storeRefusal(e)
      if (refused) throw new HttpError(400, `body: the store refused the record: ${refused}`)
      throw e
    }
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { ok: true }
  })

  // For operators and the e2e suite: the stored record of one visitor.
  router.get('/api/_ops/visitors/:userId', async (ctx) => {
    requireOpsChannel(ctx, deps)
    const record = await getVisitor(requireStore(ctx, deps).db, ctx.params.userId)
    if (!record) throw new HttpError(404, `no visitor record for ${ctx.params.userId}`)
    ctx.set('Cache-Control', 'no-store')
    ctx.body = record
  })
}
