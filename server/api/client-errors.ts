/**
 * POST /api/client-errors (spec point 9, docs/decisions/0504): the browser reports uncaught errors,
 * unhandled rejections, mount and chunk failures (schemas/client-error-report.schema.json). Each
 * report becomes one structured log line with its stack trimmed to ERROR_REPORT_MAX_FRAMES frames of
 * at most ERROR_REPORT_MAX_LINE_LENGTH characters. Reports are rate limited per client address so a
 * looping error cannot flood the logs.
 */
import type Router from '@koa/router'
import {
  CLIENT_ERROR_MAX_BODY_BYTES,
  CLIENT_ERRORS_PATH,
  CLIENT_ERRORS_PER_MINUTE,
  ERROR_REPORT_MAX_LINE_LENGTH,
} from '../../engine/constants'
import { trimLine, trimStack } from '../../engine/error-report/client-error-report'
import type { ClientErrorReport } from '../../schemas/generated/client-error-report'
import { HttpError } from '../http/http-error'
import { RateLimiter } from '../http/rate-limiter'
import { readJson } from '../http/read-json'
import { clientOf } from '../http/request-client'
import { log } from '../log'

const MINUTE_MS = 60_000

export function registerClientErrors(
  router: Router,
  limiter = new RateLimiter(CLIENT_ERRORS_PER_MINUTE, MINUTE_MS),
): void {
  router.post(CLIENT_ERRORS_PATH, async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    const wait = limiter.hit(clientOf(ctx).ip)
    if (wait)
      throw new HttpError(429, `too many reports: at most ${CLIENT_ERRORS_PER_MINUTE} a minute`, {
        headers: { 'Retry-After': String(wait) },
      })
    const report = await readJson<ClientErrorReport>(ctx, {
      limit: CLIENT_ERROR_MAX_BODY_BYTES,
      schema: 'client-error-report.schema.json',
    })
    log('warn', 'client error', {
      message: trimLine(report.message),
      stack: trimStack(report.stack ?? ''),
      kind: report.kind,
      url: trimLine(report.url),
      ...(report.buildId ? { buildId: trimLine(report.buildId) } : {}),
      userAgent: (ctx.get('user-agent') || '').slice(0, ERROR_REPORT_MAX_LINE_LENGTH),
      host: clientOf(ctx).host,
    })
    ctx.status = 204
  })
}
