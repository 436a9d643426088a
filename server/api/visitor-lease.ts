/**
 * A funnel visitor's phone lease is the server's (docs/decisions/0233, 0235): it follows the spec's
 * lease rule (point 4) with the answers the server holds, so a walk leases the same with JavaScript on
 * and off. A number is leased when none is held or the held one expires within 20 s, and at once when
 * a posted step changes a quote field (the change cuts the held number to 10 s, and the check that
 * follows the post finds it due). It is checked:
 *
 * - when a step is posted (server/render/funnel-post.ts), the funnel's end included;
 * - when a step is shown to a visitor whose answers the server holds (funnel-visitor-page.ts);
 * - every 4 s by the browser's lease machine on a funnel step (`POST /api/funnel/phone`), which
 *   shows the number the server holds and so never leases beside it.
 *
 * A visitor's first number comes with their first answer: before it, the page is the one everybody
 * gets and the rule's default shows. Each lease is recorded for `npm run leads` before it is answered.
 */
import type Router from '@koa/router'
import type { Context } from 'koa'
import {
  MARKETPLACE_BODY_MAX_BYTES,
  MARKETPLACE_RATE_LIMIT_DEFAULT_PER_MINUTE,
  PHONE_REFRESH_BEFORE_EXPIRY_MS,
} from '../../engine/constants'
import { SHARED_BUCKET_KEY } from '../../engine/funnel/buckets'
import type { LeasedPhone } from '../../engine/phone/leased-phone'
import { getPhoneBody, type MarketplaceFacts } from '../../engine/phone/payloads'
import { QUOTE_FIELDS } from '../../engine/phone/quote-fields'
import { selectPhoneRule } from '../../engine/phone/select-phone-rule'
import type { Resolution } from '../../engine/render/resolution'
import type { FormValues } from '../../engine/runtime-contracts'
import type { GetPhoneAnswer } from '../../schemas/generated/api-get-phone-answer'
import type { MarketplaceRequest } from '../../schemas/generated/api-marketplace-request'
import type { AppDeps } from '../app-deps'
import { HttpError } from '../http/http-error'
import { RateLimiter } from '../http/rate-limiter'
import { checkSchema, readJsonBody } from '../http/read-json'
import { clientOf } from '../http/request-client'
import { heldVisitor } from '../render/funnel-visitor'
import { loadBuckets } from '../store/answer-store'
import type { Queryable } from '../store/db'
import { leasePhone, MARKETPLACE_REQUEST_SCHEMA, marketplaceOf } from './mediaalpha'

const MINUTE_MS = 60_000

/** Who a marketplace body of a funnel visitor is about, beside the answers. */
export interface LeaseVisitor {
  url: string
  ip: string
  userAgent: string
  urlParams: Record<string, string | undefined>
  userId: string
  sessionId: string
}

/**
 * What a marketplace body of a funnel page needs beside the answers: the brand, the page's phone
 * rule and the visitor; null when the page asks no marketplace or no rule applies.
 */
export function marketplaceContext(resolution: Resolution, visitor: LeaseVisitor): MarketplaceFacts | null {
  const brandId = resolution.brand?.id
  if (!brandId || resolution.thirdParty.marketplace === false) return null
  const pageKey = resolution.page?.key ?? null
  const rule = selectPhoneRule(resolution.phoneRules ?? [], {
    brandId,
    pageKey,
    utmSource: visitor.urlParams.utm_source,
    afid: visitor.urlParams.afid,
  })
  if (!rule) return null
  return {
    brandId,
    ip: visitor.ip,
    geo: {},
    localHour: new Date().getHours(),
    placementId: rule.placementId,
    ruleAfid: rule.afid,
    userAgent: visitor.userAgent,
    url: visitor.url,
    pageKey,
    urlParams: visitor.urlParams,
    userId: visitor.userId,
    sessionId: visitor.sessionId,
  }
}

/** The number the marketplace leased this visitor last, while its lease runs; else null. */
export async function heldLease(
  db: Queryable,
  anonymousId: string,
  now: number,
): Promise<LeasedPhone | null> {
  const lease = await db.query<{ phone: string; expires_at: Date | string }>(
    `SELECT phone, expires_at FROM marketplace_calls
     WHERE kind = 'get-phone' AND ok AND user_id = $1 AND phone IS NOT NULL AND expires_at > $2
     ORDER BY at DESC, id DESC LIMIT 1`,
    [anonymousId, new Date(now).toISOString()],
  )
  const row = lease.rows[0]
  return row ? { value: row.phone, expiresAt: new Date(row.expires_at).getTime() } : null
}

/** True when a quote field (spec point 4) differs between two sets of answers. */
export function quoteChanged(before: FormValues, after: FormValues): boolean {
  return QUOTE_FIELDS.some((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name]))
}

/** One check at a time per visitor in this process, so two requests at once never lease twice. */
const checking = new Map<string, Promise<unknown>>()

/**
 * The spec's lease rule for one funnel visitor (docs/decisions/0235): the held number, or a new one
 * when none is held, it expires within 20 s, or `changed` (a posted quote field). `facts` builds the
 * marketplace facts when a lease is due (null: the page asks no marketplace). Never throws; resolves
 * the number the visitor holds afterwards (null: none).
 */
export function checkVisitorLease(
  deps: AppDeps,
  anonymousId: string,
  facts: () => MarketplaceFacts | null,
  answers: () => Promise<FormValues>,
  changed = false,
): Promise<LeasedPhone | null> {
  const before = checking.get(anonymousId) ?? Promise.resolve()
  const run = before.then(async () => {
    const db = deps.store?.db
    if (!db || !marketplaceOf(deps).client) return null
    const now = Date.now()
    const held = await heldLease(db, anonymousId, now)
    const due = changed || !held || held.expiresAt - now < PHONE_REFRESH_BEFORE_EXPIRY_MS
    if (!due) return held
    const context = facts()
    if (!context) return held
    const leased = await leasePhone(deps, getPhoneBody(context, await answers()), context.ip)
    return leased ?? held
  })
  const settled = run.catch(() => null)
  checking.set(anonymousId, settled)
  void settled.then(() => {
    if (checking.get(anonymousId) === settled) checking.delete(anonymousId)
  })
  return settled
}

/** The answers a lease from the browser's loop is made with: the visitor's shared bucket. */
async function leaseAnswers(db: Queryable, anonymousId: string): Promise<FormValues> {
  return (await loadBuckets(db, anonymousId)).read(SHARED_BUCKET_KEY)
}

/**
 * POST /api/funnel/phone: the browser's lease machine on a funnel step (every 4 s while a number is
 * due). The body is the browser's marketplace request (api-marketplace-request) without answers; the
 * server uses the answers it holds and the visitor its cookies prove. 200 with the number the visitor
 * holds (leased now only when due), 204 when they hold none (no answers yet, or no marketplace answer).
 */
export function registerVisitorLeaseApi(router: Router, deps: AppDeps): void {
  const limiter = new RateLimiter(
    deps.config.mediaalphaRateLimitPerMinute ?? MARKETPLACE_RATE_LIMIT_DEFAULT_PER_MINUTE,
    MINUTE_MS,
  )
  router.post('/api/funnel/phone', async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store')
    if (!marketplaceOf(deps).client)
      throw new HttpError(
        503,
        'The ad marketplace is not configured on this server (MEDIAALPHA_BASE_URL is unset)',
        { expose: true },
      )
    const { ip } = clientOf(ctx)
    const wait = limiter.hit(ip)
    if (wait)
      throw new HttpError(429, `Too many phone requests from this visitor; try again in ${wait} s`, {
        headers: { 'Retry-After': String(wait) },
      })
    const request = checkSchema<MarketplaceRequest>(
      MARKETPLACE_REQUEST_SCHEMA,
      await readJsonBody(ctx, MARKETPLACE_BODY_MAX_BYTES),
    )
    const db = deps.store?.db
    const visitor = db ? await heldVisitor(ctx, db) : null
    if (!db || !visitor) {
      ctx.status = 204
      return
    }
    const { values: _typed, ...known } = request
    const facts: MarketplaceFacts = {
      ...known,
      ip,
      userAgent: ctx.get('user-agent'),
      // The lead record names the visitor the cookies prove, whatever the page says.
      userId: visitor.anonymousId,
    }
    const answers = () => leaseAnswers(db, visitor.anonymousId)
    // Nobody is leased a number before their first answer (the same as without JavaScript).
    const held = Object.keys(await answers()).length
      ? await checkVisitorLease(deps, visitor.anonymousId, () => facts, answers)
      : null
    if (!held) {
      ctx.status = 204
      return
    }
    ctx.body = {
      value: held.value,
      expirationDate: new Date(held.expiresAt).toISOString(),
    } satisfies GetPhoneAnswer
  })
}
