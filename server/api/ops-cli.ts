import type Router from '@koa/router'
import { registerSchemas } from '../../engine/definitions/validators'
import opsPreviewSchema from '../../schemas/api-ops-preview.schema.json' with { type: 'json' }
import opsStaffSchema from '../../schemas/api-ops-staff.schema.json' with { type: 'json' }
import type { ApiOpsPreview } from '../../schemas/generated/api-ops-preview'
import type { ApiOpsStaff } from '../../schemas/generated/api-ops-staff'
import type { AppDeps } from '../app-deps'
import { mintImportPreview, NoPreviewSignerError } from '../control-center/services/import-preview'
import { HttpError } from '../http/http-error'
import { readJson } from '../http/read-json'
import { runStaffCommand, UsageError } from '../store/staff-commands'
import { requireOpsChannel } from './ops-auth'
import { requireStore } from './require-store'

const STAFF_SCHEMA = 'api-ops-staff.schema.json'
const PREVIEW_SCHEMA = 'api-ops-preview.schema.json'
registerSchemas({ [STAFF_SCHEMA]: opsStaffSchema, [PREVIEW_SCHEMA]: opsPreviewSchema })

/** Largest body of the CLIs' operator requests. */
const OPS_BODY_LIMIT_BYTES = 16 * 1024

/**
 * What the CLIs ask the server that holds the PGlite folder to do for them (docs/decisions/0616,
 * 0617): `npm run staff` commands, and the preview grant `npm run content -- import` prints links with.
 */
export function opsCliApi(router: Router, deps: AppDeps): void {
  router.post('/api/_ops/staff', async (ctx) => {
    requireOpsChannel(ctx, deps)
    const store = requireStore(ctx, deps)
    const input = await readJson<ApiOpsStaff>(ctx, {
      limit: OPS_BODY_LIMIT_BYTES,
      schema: STAFF_SCHEMA,
    })
    try {
      ctx.body = {
        lines: await runStaffCommand(store.db, input.args, { role: input.role, password: input.password }),
      }
    } catch (e) {
      if (e instanceof UsageError) throw new HttpError(400, e.message)
      throw e
    }
    ctx.set('Cache-Control', 'no-store')
  })

  router.post('/api/_ops/previews', async (ctx) => {
    requireOpsChannel(ctx, deps)
    const store = requireStore(ctx, deps)
    if (!deps.content) throw new HttpError(409, "this server's content services are off (no git)")
    const input = await readJson<ApiOpsPreview>(ctx, {
      limit: OPS_BODY_LIMIT_BYTES,
      schema: PREVIEW_SCHEMA,
    })
    await deps.content.branches.head(input.branch)
    try {
      ctx.body = await mintImportPreview(store.db, deps.content.previews, input.branch, input.as)
    } catch (e) {
      if (e instanceof NoPreviewSignerError) throw new HttpError(400, e.message)
      throw e
    }
    ctx.set('Cache-Control', 'no-store')
  })
}
