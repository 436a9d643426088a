import type Router from '@koa/router'
import type { Context } from 'koa'
import {
  MARKETPLACE_BODY_MAX_BYTES,
  MARKETPLACE_BREAKER_FAILURES,
  MARKETPLACE_BREAKER_OPEN_MS,
  MARKETPLACE_RATE_LIMIT_DEFAULT_PER_MINUTE,
  MARKETPLACE_TIMEOUT_DEFAULT_MS,
} from '../../engine/constants'
import { registerSchemas } from '../../engine/definitions/validators'
import { type LeasedPhone, parseLeasedPhone } from '../../engine/phone/leased-phone'
import { demandCheckBody, getPhoneBody } from '../../engine/phone/payloads'
import type { FormValues } from '../../engine/runtime-contracts'
import marketplaceRequestSchema from '../../schemas/api-marketplace-request.schema.json' with { type: 'json' }
import type { DemandCheckBody } from '../../schemas/generated/api-demand-check-body'
import type { GetPhoneAnswer } from '../../schemas/generated/api-get-phone-answer'
import type { GetPhoneBody } from '../../schemas/generated/api-get-phone-body'
import type { MarketplaceRequest } from '../../schemas/generated/api-marketplace-request'
import type { AppDeps } from '../app-deps'
import { HttpError } from '../http/http-error'
import { RateLimiter } from '../http/rate-limiter'
import { checkSchema, readJsonBody } from '../http/read-json'
import { clientOf } from '../http/request-client'
import { log } from '../log'
import { heldAnswers } from '../render/funnel-visitor'
import { type MarketplaceCallRow, recordMarketplaceCall } from '../store/lead-store'
import { MarketplaceClient, type MarketplacePath } from '../upstream/marketplace-client'

const MINUTE_MS = 60_000
/** The browser's marketplace request: a server-only schema, so it stays out of the browser's bundle. */
export const MARKETPLACE_REQUEST_SCHEMA = 'api-marketplace-request.schema.json'
registerSchemas({ [MARKETPLACE_REQUEST_SCHEMA]: marketplaceRequestSchema })

/** The marketplace client of an app (one circuit breaker for the API and the posted funnel) and the lead record's writer. */
interface Marketplace {
  client: MarketplaceClient | null
  /** Keeps a call for the lead record (npm run leads); the browser's calls never wait for it. */
  keep: (row: MarketplaceCallRow) => Promise<void>
}

const marketplaces = new WeakMap<AppDeps, Marketplace>()

export function marketplaceOf(deps: AppDeps): Marketplace {
  const known = marketplaces.get(deps)
  if (known) return known
  const { config, metrics } = deps
  const client = config.mediaalphaBaseUrl
    ? new MarketplaceClient({
        baseUrl: config.mediaalphaBaseUrl,
        apiKey: config.mediaalphaApiKey ?? null,
        timeoutMs: config.mediaalphaTimeoutMs ?? MARKETPLACE_TIMEOUT_DEFAULT_MS,
        breakerFailures: MARKETPLACE_BREAKER_FAILURES,
        breakerOpenMs: MARKETPLACE_BREAKER_OPEN_MS,
        record: metrics
          ? (path, outcome) => {
              metrics.marketplace[path === '/demand-check' ? 'demand-check' : 'get-phone'][outcome].inc()
              if (outcome === 'timeout') metrics.marketplaceTimeouts.inc()
            }
          : undefined,
      })
    : null
  if (client) metrics?.watch({ marketplaceBreaker: client.breaker })
  // For the lead record (npm run leads): which visitor was checked and shown which number. Written
  // after the answer is decided and never waited for: the phone line must not slow down for it.
  const keep = async (row: MarketplaceCallRow) => {
    if (!deps.store) return
    await recordMarketplaceCall(deps.store.db, row).catch((e) =>
      log('warn', 'marketplace call not recorded', { error: (e as Error).message }),
    )
  }
  const made = { client, keep }
  marketplaces.set(deps, made)
  return made
}

/**
 * Leases a phone number for a get-phone body the server built itself (a funnel visitor's lease:
 * docs/decisions/0221, 0235) and keeps the call for the lead record, as the API does for the
 * browser's. Resolves the number, or null, once the call is recorded; never throws.
 */
export async function leasePhone(deps: AppDeps, body: GetPhoneBody, ip: string): Promise<LeasedPhone | null> {
  const { client, keep } = marketplaceOf(deps)
  if (!client) return null
  try {
    const result = await client.post('/get-phone', { ...body, ip })
    const call = {
      kind: 'get-phone',
      user_id: body.sub_2 ?? null,
      session_id: body.sub_3 ?? null,
      page_url: body.url ?? null,
    } as const
    if (!result.ok) {
      deps.metrics?.phoneLeases.failed.inc()
      await keep({ ...call, ok: false, status: result.status, answer: { error: result.error } })
      return null
    }
    const leased = parseLeasedPhone(result.json)
    deps.metrics?.phoneLeases[leased ? 'leased' : 'unusable'].inc()
    // Recorded before it is answered: the thank-you page that follows shows what the record says (0231).
    await keep({
      ...call,
      ok: !!leased,
      status: leased ? 200 : 502,
      phone: leased?.value ?? null,
      expires_at: leased ? new Date(leased.expiresAt).toISOString() : null,
    })
    return leased
  } catch (e) {
    log('warn', 'phone lease of a funnel visitor failed', { error: (e as Error).message })
    return null
  }
}

/**
 * A demand check for a body the server built itself (a posted funnel step's action, with the answers
 * the server holds; docs/decisions/0524), kept for the lead record as the API keeps the browser's.
 * Resolves the marketplace's JSON, or null; never throws.
 */
export async function checkDemand(deps: AppDeps, body: DemandCheckBody, ip: string): Promise<unknown> {
  const { client, keep } = marketplaceOf(deps)
  if (!client) return null
  try {
    const result = await client.post('/demand-check', { ...body, ip })
    const call = {
      kind: 'demand-check',
      user_id: body.sub_2 ?? null,
      session_id: body.sub_3 ?? null,
      page_url: body.url ?? null,
    } as const
    if (!result.ok) {
      keep({ ...call, ok: false, status: result.status, answer: { error: result.error } })
      return null
    }
    keep({ ...call, ok: true, status: 200, answer: result.json })
    return { parsed: result.json, raw: result.text }
  } catch (e) {
    log('warn', 'demand check of a posted funnel step failed', { error: (e as Error).message })
    return null
  }
}

/** The parts of a validated marketplace body the lead record keeps (sub_2/sub_3: user and session ids). */
type MarketplaceBody = { sub_2?: string; sub_3?: string; url?: string }

/**
 * The marketplace body of a request. The browser sends what it knows of the visitor and the page
 * and the quote answers (api-marketplace-request); the body is built here, with the IP and user
 * agent the server sees, by the builders the spec's rules live in (engine/phone/payloads.ts), so
 * the browser downloads none of them (docs/decisions/0523). A full body is still accepted (spec
 * point 7's table). Either way the body sent on is checked against the path's schema.
 */
export function marketplaceBody(
  path: MarketplacePath,
  value: unknown,
  seen: { ip: string; userAgent: string },
  held: FormValues = {},
): MarketplaceBody {
  const schema =
    path === '/demand-check' ? 'api-demand-check-body.schema.json' : 'api-get-phone-body.schema.json'
  const fromBrowser = typeof value === 'object' && value !== null && 'values' in value && !('data' in value)
  if (!fromBrowser) return checkSchema<MarketplaceBody>(schema, value)
  const { values, ...known } = checkSchema<MarketplaceRequest>(MARKETPLACE_REQUEST_SCHEMA, value)
  const facts = { ...known, ip: seen.ip, userAgent: seen.userAgent }
  // The answers the server holds for this browser, under what its inputs show now (docs/decisions/0524).
  const answers = { ...held, ...values }
  const body = path === '/demand-check' ? demandCheckBody(facts, answers) : getPhoneBody(facts, answers)
  return checkSchema<MarketplaceBody>(schema, body, 'built body')
}

/**
 * POST /api/mediaalpha/demand-check and /api/mediaalpha/get-phone (spec point 7): validate the body,
 * put in the client IP the server sees, forward to MEDIAALPHA_BASE_URL with timeout, circuit breaker
 * and a per-visitor rate limit. Without a configured marketplace both answer 503; an upstream answer
 * that is not JSON is a 502.
 */
export function registerMediaAlphaApi(router: Router, deps: AppDeps): void {
  const { config, metrics } = deps
  const { client, keep } = marketplaceOf(deps)
  const limiter = new RateLimiter(
    config.mediaalphaRateLimitPerMinute ?? MARKETPLACE_RATE_LIMIT_DEFAULT_PER_MINUTE,
    MINUTE_MS,
  )

  const handler = (path: MarketplacePath) => async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store')
    if (!client)
      throw new HttpError(
        503,
        'The ad marketplace is not configured on this server (MEDIAALPHA_BASE_URL is unset)',
        { expose: true },
      )
    const { ip } = clientOf(ctx)
    const wait = limiter.hit(`${path} ${ip}`)
    if (wait)
      throw new HttpError(429, `Too many phone requests from this visitor; try again in ${wait} s`, {
        headers: { 'Retry-After': String(wait) },
      })
    const body = marketplaceBody(
      path,
      await readJsonBody(ctx, MARKETPLACE_BODY_MAX_BYTES),
      { ip, userAgent: ctx.get('user-agent') },
      deps.store ? await heldAnswers(ctx, deps.store.db) : {},
    )
    const result = await client.post(path, { ...body, ip })
    const call = {
      kind: path === '/demand-check' ? 'demand-check' : 'get-phone',
      user_id: body.sub_2 ?? null,
      session_id: body.sub_3 ?? null,
      page_url: body.url ?? null,
    } as const
    if (path === '/get-phone' && !result.ok) metrics?.phoneLeases.failed.inc()
    if (!result.ok) {
      void keep({ ...call, ok: false, status: result.status, answer: { error: result.error } })
      throw new HttpError(result.status, result.error, { expose: true })
    }
    if (path === '/demand-check') {
      void keep({ ...call, ok: true, status: 200, answer: result.json })
      ctx.body = { parsed: result.json, raw: result.text }
      return
    }
    const leased = parseLeasedPhone(result.json)
    metrics?.phoneLeases[leased ? 'leased' : 'unusable'].inc()
    void keep({
      ...call,
      ok: !!leased,
      status: leased ? 200 : 502,
      phone: leased?.value ?? null,
      expires_at: leased ? new Date(leased.expiresAt).toISOString() : null,
    })
    if (!leased) throw new HttpError(502, 'The ad marketplace gave no usable phone number', { expose: true })
    ctx.body = {
      value: leased.value,
      expirationDate: new Date(leased.expiresAt).toISOString(),
    } satisfies GetPhoneAnswer
  }

  router.post('/api/mediaalpha/demand-check', handler('/demand-check'))
  router.post('/api/mediaalpha/get-phone', handler('/get-phone'))
}
