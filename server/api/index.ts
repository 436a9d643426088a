import type Router from '@koa/router'
import type { AppDeps } from '../app-deps'
import { controlCenterApi } from '../control-center/api'
import { registerFunnelOpsApi } from '../control-center/api/funnels'
import { funnelResumeLinkApi } from '../render/funnel-resume'
import { authApi } from './auth'
import { registerClientErrors } from './client-errors'
import { consentApi } from './consent'
import { eventApi } from './events'
import { registerIpApi } from './ip'
import { leadsApi } from './leads'
import { registerMediaAlphaApi } from './mediaalpha'
import { opsBackupApi } from './ops-backup'
import { opsCliApi } from './ops-cli'
import { userApi } from './user'
import { registerVisitorLeaseApi } from './visitor-lease'

/**
 * Registers every /api route. Each feature adds one line here and keeps its handlers in its own file
 * (server/api/<feature>.ts).
 */
export function registerApis(router: Router, deps: AppDeps): void {
  registerClientErrors(router)
  registerIpApi(router, deps)
  registerMediaAlphaApi(router, deps)
  registerVisitorLeaseApi(router, deps)
  eventApi(router, deps)
  consentApi(router, deps)
  funnelResumeLinkApi(router, deps)
  leadsApi(router, deps)
  opsCliApi(router, deps)
  registerFunnelOpsApi(router, deps)
  opsBackupApi(router, deps)
  userApi(router, deps)
  authApi(router, deps)
  controlCenterApi(router, deps)
}
