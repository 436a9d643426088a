/**
 * POST /api/client-errors (spec point 9, docs/decisions/0504): the browser reports uncaught errors,
 * unhandled rejections, mount and chunk failures. Each report becomes one structured log line with
 * its stack trimmed to ERROR_REPORT_MAX_FRAMES frames of at most ERROR_REPORT_MAX_LINE_LENGTH
 * characters. Reports are rate limited per client address so a looping error cannot flood the logs.
 */
import type Router from '@koa/router'
import type { Context } from 'koa'
import {
  CLIENT_ERROR_MAX_BODY_BYTES,
  CLIENT_ERRORS_PATH,
  CLIENT_ERRORS_PER_MINUTE,
  ERROR_REPORT_MAX_LINE_LENGTH,
} from '../../engine/constants'
import {
  CLIENT_ERROR_KINDS,
  type ClientErrorReport,
  trimLine,
  trimStack,
} from '../../engine/error-report/client-error-report'
import { log } from '../log'

const WINDOW_MS = 60_000

/** Fixed-window counter per key; old windows are dropped as they are passed. */
export class RateLimiter {
  #windows = new Map<string, { start: number; count: number }>()
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    readonly now: () => number = Date.now,
  ) {}

  allow(key: string): boolean {
    const t = this.now()
    const w = this.#windows.get(key)
    if (!w || t - w.start >= this.windowMs) {
      if (this.#windows.size > 10_000) this.#prune(t)
      this.#windows.set(key, { start: t, count: 1 })
      return true
    }
    w.count++
    return w.count <= this.limit
  }

  #prune(t: number) {
    for (const [k, w] of this.#windows) if (t - w.start >= this.windowMs) this.#windows.delete(k)
  }
}

class BadReport extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message)
  }
}

async function readBody(ctx: Context): Promise<string> {
  const declared = Number(ctx.get('content-length') || 0)
  if (declared > CLIENT_ERROR_MAX_BODY_BYTES)
    throw new BadReport(`report too large: at most ${CLIENT_ERROR_MAX_BODY_BYTES} bytes`, 413)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > CLIENT_ERROR_MAX_BODY_BYTES)
      throw new BadReport(`report too large: at most ${CLIENT_ERROR_MAX_BODY_BYTES} bytes`, 413)
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** Checks a parsed body; throws BadReport naming the field at fault. */
export function parseReport(value: unknown): ClientErrorReport {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new BadReport('body must be a JSON object')
  const v = value as Record<string, unknown>
  if (typeof v.message !== 'string' || v.message.trim() === '')
    throw new BadReport('message: required, a non-empty string')
  if (v.stack !== undefined && typeof v.stack !== 'string') throw new BadReport('stack: must be a string')
  if (typeof v.url !== 'string') throw new BadReport('url: required, a string')
  if (!CLIENT_ERROR_KINDS.includes(v.kind as ClientErrorReport['kind']))
    throw new BadReport(`kind: must be one of ${CLIENT_ERROR_KINDS.join(', ')}`)
  if (v.buildId !== undefined && typeof v.buildId !== 'string')
    throw new BadReport('buildId: must be a string')
  return {
    message: trimLine(v.message),
    stack: trimStack(v.stack ?? ''),
    kind: v.kind as ClientErrorReport['kind'],
    url: trimLine(v.url),
    ...(v.buildId ? { buildId: trimLine(v.buildId as string) } : {}),
  }
}

export function registerClientErrors(
  router: Router,
  limiter = new RateLimiter(CLIENT_ERRORS_PER_MINUTE, WINDOW_MS),
): void {
  router.post(CLIENT_ERRORS_PATH, async (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    try {
      if (!limiter.allow(ctx.ip))
        throw new BadReport(`too many reports: at most ${CLIENT_ERRORS_PER_MINUTE} a minute`, 429)
      const text = await readBody(ctx)
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        throw new BadReport('body must be JSON')
      }
      const report = parseReport(parsed)
      log('warn', 'client error', {
        ...report,
        userAgent: (ctx.get('user-agent') || '').slice(0, ERROR_REPORT_MAX_LINE_LENGTH),
        host: ctx.get('host'),
      })
      ctx.status = 204
    } catch (e) {
      if (!(e instanceof BadReport)) throw e
      ctx.status = e.status
      ctx.body = { error: e.message, status: e.status }
    }
  })
}
