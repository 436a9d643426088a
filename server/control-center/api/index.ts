/**
 * The control center's JSON API, /api/cc/* (docs/control-center-api.md). Every handler goes
 * through ccRoute: the control center's host, a signed-in user, JSON writes from its own pages.
 */
import type Router from '@koa/router'
import type { AppDeps } from '../../app-deps'
import { registerArticleApi } from './article-preview'
import { registerBranchApi } from './branches'
import { registerEditorApi } from './editor'
import { registerExperimentApi } from './experiments'
import { registerFunnelApi } from './funnels'
import { registerGateApi } from './gates'
import { registerImageApi } from './images'
import { registerLeadApi } from './leads'
import { registerLiveHealthApi } from './live-health'
import { registerPhoneRuleApi } from './phone-rules'
import { registerPresenceApi } from './presence'
import { registerPreviewActivityApi } from './previews-activity'
import { registerPublishingApi } from './publishing'
import { registerRunApi } from './runs'
import './schemas'

export function controlCenterApi(router: Router, deps: AppDeps): void {
  registerBranchApi(router, deps)
  registerPublishingApi(router, deps)
  registerPreviewActivityApi(router, deps)
  registerExperimentApi(router, deps)
  registerRunApi(router, deps)
  registerPhoneRuleApi(router, deps)
  registerImageApi(router, deps)
  registerGateApi(router, deps)
  registerEditorApi(router, deps)
  registerArticleApi(router, deps)
  registerPresenceApi(router, deps)
  registerLiveHealthApi(router, deps)
  registerFunnelApi(router, deps)
  registerLeadApi(router, deps)
}
