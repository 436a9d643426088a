/**
 * A person's data on request in the control center (issue 36, docs/decisions/0811): an admin exports
 * every record held about a person, or erases them. Both are audited; the audit entry names the key by
 * its SHA-256 (an erased e-mail must not live on in the append-only audit log).
 */
import type Router from '@koa/router'
import { assertCan } from '../../../engine/control-center/content/permissions'
import type { ApiCcLead } from '../../../schemas/generated/api-cc-lead'
import type { AppDeps } from '../../app-deps'
import { audit } from '../../store/auth-store'
import { erasureKeyHash } from '../../store/lead-keys'
import { erasePerson, personExport } from '../../store/person-data'
import { ccRoute } from './cc-route'
import { CC_SCHEMAS, readCcBody } from './schemas'

export function registerLeadApi(router: Router, deps: AppDeps): void {
  router.post(
    '/api/cc/leads/export',
    ccRoute(deps, 'LeadExport', async (ctx, cc) => {
      assertCan(cc.user, 'leads.manage')
      const { key } = await readCcBody<ApiCcLead>(ctx, CC_SCHEMAS.lead)
      const held = await personExport(cc.store.db, key.trim())
      await audit(cc.store.db, {
        actor: cc.user.id,
        action: 'lead.export',
        target: erasureKeyHash(key),
        details: {
          matchedBy: held.matchedBy,
          records:
            held.answers.length +
            held.answerKeys.length +
            held.visitors.length +
            held.events.length +
            held.consentRecords.length +
            held.marketplaceCalls.length,
        },
        ip: cc.ip,
      })
      return held
    }),
  )
  router.post(
    '/api/cc/leads/erase',
    ccRoute(deps, 'LeadErasure', async (ctx, cc) => {
      assertCan(cc.user, 'leads.manage')
      const { key } = await readCcBody<ApiCcLead>(ctx, CC_SCHEMAS.lead)
      return erasePerson(cc.store.db, key.trim(), cc.user.id)
    }),
  )
}
