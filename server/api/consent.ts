import type Router from '@koa/router'
import type { Context } from 'koa'
import { consentClaimProblems } from '../../engine/consent/check-consent-claim'
import { API_BODY_LIMIT_BYTES, EVENT_BATCH_MAX } from '../../engine/constants'
import { validatorFor } from '../../engine/definitions/validators'
import type { ConsentRecordBody } from '../../schemas/generated/api-consent-record'
import type { AppDeps } from '../app-deps'
import { ConsentRegistry } from '../consent/consent-registry'
import { sha256Hex } from '../consent/consent-versions'
import { HttpError } from '../http/http-error'
import { checkSchema, readJsonBody } from '../http/read-json'
import { clientOf } from '../http/request-client'
import { brandIdForHost } from '../render/resolve-request'
import { type ConsentRecordRow, commitOfSnapshot, insertConsentRecords } from '../store/consent-store'
import { storeRefusal } from '../store/store-refusal'
import { requireStore } from './require-store'

/** Longest user agent kept in a record (the event schema's limit). */
export const USER_AGENT_MAX = 1024

/**
 * POST /api/consent/create (docs/decisions/0800): the consent text a visitor saw beside a step they
 * submitted. One body or an array of up to EVENT_BATCH_MAX (the browser's one queue sends them
 * beside events). Each is checked against its schema and against the consent versions the server
 * has served (a forged text is refused with 422 naming the field), stamped with server time, the
 * client's IP (the trusted-proxy rule) and user agent, and answered only once committed. A
 * redelivered id is stored once and acknowledged again.
 */
export function consentApi(router: Router, deps: AppDeps): void {
  validatorFor('api-consent-record.schema.json')
  const registry = deps.store ? new ConsentRegistry(deps.store.db, deps.snapshots) : null
  router.post('/api/consent/create', async (ctx) => {
    const store = requireStore(ctx, deps)
    const body = await readJsonBody(ctx, API_BODY_LIMIT_BYTES)
    const list = Array.isArray(body) ? body : [body]
    const at = (i: number) => (Array.isArray(body) ? `/${i}` : '')
    if (list.length === 0) throw new HttpError(400, 'body: an empty array holds no consent records')
    if (list.length > EVENT_BATCH_MAX)
      throw new HttpError(400, `body: ${list.length} records in one request; send at most ${EVENT_BATCH_MAX}`)
    const records = list.map((r, i) =>
      checkSchema<ConsentRecordBody>('api-consent-record.schema.json', r, at(i)),
    )
    const problems: string[] = []
    // A record names the brand of the site it was posted to (a host that names no brand, e.g. a
    // health check by IP, is not a site: nothing to compare).
    const siteBrand = brandIdForHost(deps.snapshots.current, clientOf(ctx).host)
    for (const [i, r] of records.entries()) {
      if (siteBrand && r.brand !== siteBrand) {
        problems.push(`${at(i)}/brand: "${r.brand}" was posted to the site of brand "${siteBrand}"`)
        continue
      }
      const known = await registry!.find(r.consent.version)
      const brand = deps.snapshots.current.brands.get(r.brand)
      problems.push(
        ...consentClaimProblems(
          r.consent,
          {
            template: known?.template ?? null,
            consentId: known?.consentId ?? null,
            sellerLegalName: brand?.ownerLegalName ?? null,
            sha256: sha256Hex,
          },
          at(i),
        ),
      )
    }
    if (problems.length) throw new HttpError(422, problems[0], { problems })
    const rows = await Promise.all(records.map((r) => recordRow(ctx, deps, r)))
    try {
      await store.db.transaction((tx) => insertConsentRecords(tx, rows))
    } catch (e) {
      const refused = storeRefusal(e)
      if (refused) throw new HttpError(400, `body: the store refused a consent record: ${refused}`)
      throw e
    }
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { ok: true, accepted: rows.length }
  })
}

async function recordRow(ctx: Context, deps: AppDeps, r: ConsentRecordBody): Promise<ConsentRecordRow> {
  const commit =
    r.snapshotId === deps.snapshots.current.id
      ? (deps.liveCommit?.() ?? null)
      : await commitOfSnapshot(deps.store!.db, r.snapshotId)
  return {
    id: r.id,
    received_at: new Date().toISOString(),
    session_id: r.sessionId,
    anonymous_id: r.anonymousId,
    user_id: r.userId ?? null,
    brand_id: r.brand,
    page_key: r.pageKey,
    form_version: r.formVersion,
    step_name: r.stepName,
    step_number: r.stepNumber,
    consent_id: r.consent.id,
    version: r.consent.version,
    text: r.consent.text,
    text_sha256: r.consent.sha256,
    seller: r.consent.seller,
    button_label: r.consent.buttonLabel,
    fields: r.fields,
    url: r.url,
    ip: clientOf(ctx).ip || null,
    user_agent: ctx.get('user-agent').slice(0, USER_AGENT_MAX) || null,
    snapshot_id: r.snapshotId,
    content_commit: commit,
    experiment: r.experiment ?? null,
    body: r,
  }
}
