import type Router from '@koa/router'
import type { Context } from 'koa'
import {
  MARKETPLACE_BODY_MAX_BYTES,
  MARKETPLACE_BREAKER_FAILURES,
  MARKETPLACE_BREAKER_OPEN_MS,
  MARKETPLACE_RATE_LIMIT_DEFAULT_PER_MINUTE,
  MARKETPLACE_TIMEOUT_DEFAULT_MS,
} from '../../engine/constants'
import { describeErrors, validatorFor } from '../../engine/definitions/validators'
import { parseLeasedPhone } from '../../engine/phone/leased-phone'
import type { AppDeps } from '../app'
import { clientIp } from '../geo/client-ip'
import { MarketplaceClient, type MarketplacePath } from '../upstream/marketplace-client'
import { RateLimiter } from '../upstream/rate-limiter'
import { readJsonBody } from '../upstream/read-json-body'

const MINUTE_MS = 60_000

/**
 * POST /api/mediaalpha/demand-check and /api/mediaalpha/get-phone (spec point 7): validate the body,
 * put in the client IP the server sees, forward to MEDIAALPHA_BASE_URL with timeout, circuit breaker
 * and a per-visitor rate limit. Without a configured marketplace both answer 503.
 */
export function registerMediaAlphaApi(router: Router, deps: AppDeps): void {
  const { config } = deps
  const client = config.mediaalphaBaseUrl
    ? new MarketplaceClient({
        baseUrl: config.mediaalphaBaseUrl,
        apiKey: config.mediaalphaApiKey ?? null,
        timeoutMs: config.mediaalphaTimeoutMs ?? MARKETPLACE_TIMEOUT_DEFAULT_MS,
        breakerFailures: MARKETPLACE_BREAKER_FAILURES,
        breakerOpenMs: MARKETPLACE_BREAKER_OPEN_MS,
      })
    : null
  const limiter = new RateLimiter(
    config.mediaalphaRateLimitPerMinute ?? MARKETPLACE_RATE_LIMIT_DEFAULT_PER_MINUTE,
    MINUTE_MS,
  )

  const handler = (path: MarketplacePath, schemaFile: string) => async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store')
    if (!client) {
      ctx.status = 503
      ctx.body = {
        error: 'The ad marketplace is not configured on this server (MEDIAALPHA_BASE_URL is unset)',
        status: 503,
      }
      return
    }
    const ip = clientIp(ctx.req.socket.remoteAddress, ctx.get('x-forwarded-for'), config.trustedProxies)
    const wait = limiter.hit(`${path} ${ip}`)
    if (wait) {
      ctx.set('Retry-After', String(wait))
      ctx.status = 429
      ctx.body = { error: `Too many phone requests from this visitor; try again in ${wait} s`, status: 429 }
      return
    }
    const body = await readJsonBody(ctx, MARKETPLACE_BODY_MAX_BYTES)
    const validate = validatorFor(schemaFile)
    if (!validate(body)) {
      const problems = describeErrors(validate.errors ?? []).map((p) => `${p.pointer || '/'}: ${p.message}`)
      ctx.status = 400
      ctx.body = { error: `Invalid request body: ${problems.join('; ')}`, status: 400, problems }
      return
    }
    const result = await client.post(path, { ...(body as object), ip })
    if (!result.ok) {
      ctx.status = result.status
      ctx.body = { error: result.error, status: result.status }
      return
    }
    let parsed: unknown = null
    try {
      parsed = JSON.parse(result.text)
    } catch {}
    if (path === '/demand-check') {
      ctx.body = { parsed, raw: result.text }
      return
    }
    const leased = parseLeasedPhone(parsed)
    if (!leased) {
      ctx.status = 502
      ctx.body = { error: 'The ad marketplace gave no usable phone number', status: 502 }
      return
    }
    ctx.body = { value: leased.value, expirationDate: new Date(leased.expiresAt).toISOString() }
  }

  router.post('/api/mediaalpha/demand-check', handler('/demand-check', 'api-demand-check-body.schema.json'))
  router.post('/api/mediaalpha/get-phone', handler('/get-phone', 'api-get-phone-body.schema.json'))
}
