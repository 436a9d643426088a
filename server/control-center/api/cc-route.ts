/**
 * The one wrapper of every /api/cc/* handler (docs/control-center-api.md): the control center's
 * host only, a signed-in staff user (401), JSON writes from the control center's own pages only
 * (CSRF: 415 / 403), every path parameter, query value and file name checked (400, cc-input.ts), no
 * caching, and the content errors' own bodies (409 conflicts, 422 errors).
 */
import type { Context } from 'koa'
import { CONTROL_CENTER_BRAND_ID } from '../../../engine/constants'
import { ABSENT } from '../../../engine/control-center/content/json-merge'
import { cookieName } from '../../api/auth'
import type { AppDeps } from '../../app-deps'
import type { ContentServices } from '../../content/content-services'
import { errorBody, HttpError } from '../../http/http-error'
import { discardBody } from '../../http/read-json'
import { clientOf } from '../../http/request-client'
import { sameOrigin } from '../../http/same-origin-writes'
import { log } from '../../log'
import { brandIdForHost } from '../../render/resolve-request'
import { type StaffUser, sessionUser } from '../../store/auth-store'
import type { Store } from '../../store/open-store'
import { MergeConflictError, PublishRefusedError } from '../services/content-errors'
import { type CcAnswerName, type CcAnswerTypes, ccAnswerProblems } from './answers'
import { checkCcInput } from './cc-input'

export interface Cc {
  user: StaffUser
  content: ContentServices
  store: Store
  ip: string
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** A conflict value as JSON: an absent field is null (the side deleted it or never had it). */
const jsonValue = (v: unknown) => (v === ABSENT || v === undefined ? null : v)

export interface CcRouteOptions {
  /**
   * The write's body is raw bytes (an image upload), not JSON: it must be sent as `image/*` or
   * `application/octet-stream`, types a cross-site form cannot send; the handler reads and checks it.
   */
  rawBody?: boolean
}

/** A cc route's middleware: it carries the name of its answer, so tests read every route's schema from the router. */
export type CcMiddleware = ((ctx: Context) => Promise<void>) & { ccAnswer: CcAnswerName }

/**
 * `answer` names the route's answer schema (schemas/cc-answers, answers.ts): the handler must return
 * that generated type (or set ctx.body itself, for a refusal with a body of its own, and return nothing).
 */
export function ccRoute<A extends CcAnswerName>(
  deps: AppDeps,
  answer: A,
  handler: (ctx: Context, cc: Cc) => Promise<CcAnswerTypes[A] | undefined>,
  opts: CcRouteOptions = {},
): CcMiddleware {
  const route = async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store')
    const { host } = clientOf(ctx)
    if (brandIdForHost(deps.snapshots.current, host) !== CONTROL_CENTER_BRAND_ID) {
      discardBody(ctx)
      throw new HttpError(404, `No API at ${ctx.method} ${ctx.path} on this host: it is the control center's`)
    }
    if (WRITES.has(ctx.method)) {
      const origin = ctx.get('origin')
      if (!origin || !sameOrigin(origin, ctx)) {
        discardBody(ctx)
        throw new HttpError(
          403,
          `Origin: ${origin || 'missing'}; the control center takes changes only from its own pages (${host})`,
          { close: true },
        )
      }
      if (opts.rawBody) {
        if (!ctx.is('image/*', 'application/octet-stream')) {
          discardBody(ctx)
          throw new HttpError(
            415,
            `Content-Type: send the image's bytes as image/* (got ${ctx.get('content-type') || 'none'}); only JPEG, PNG, WebP, GIF and AVIF images are taken`,
            { close: true },
          )
        }
      } else if (!ctx.is('application/json')) {
        discardBody(ctx)
        throw new HttpError(
          415,
          `Content-Type: send the body as application/json (got ${ctx.get('content-type') || 'none'})`,
          { close: true },
        )
      }
    }
    if (!deps.store) throw new HttpError(503, 'no data store is configured', { expose: true })
    if (!deps.content)
      throw new HttpError(503, "the control center's content services are off (is git installed?)", {
        expose: true,
      })
    const token = ctx.cookies.get(cookieName(ctx))
    const user = token ? await sessionUser(deps.store.db, token) : null
    if (!user) {
      discardBody(ctx)
      throw new HttpError(401, 'sign in to use the control center')
    }
    try {
      checkCcInput(ctx)
    } catch (e) {
      discardBody(ctx)
      throw e
    }
    try {
      const body = await handler(ctx, {
        user,
        content: deps.content,
        store: deps.store,
        ip: clientOf(ctx).ip,
      })
      if (body !== undefined && ctx.body === undefined) ctx.body = body
      if (deps.config.mode === 'development') checkAnswer(ctx, answer)
    } catch (e) {
      if (e instanceof MergeConflictError) {
        ctx.status = 409
        ctx.body = {
          ...errorBody(409, e.message),
          ...(e.head ? { head: e.head } : {}),
          conflicts: e.files.map((f) => ({
            path: f.path,
            ...(f.texts ? { texts: f.texts } : {}),
            conflicts: f.conflicts.map((c) => ({
              pointer: c.pointer,
              base: jsonValue(c.base),
              theirs: jsonValue(c.theirs),
              mine: jsonValue(c.mine),
            })),
          })),
        }
        return
      }
      if (e instanceof PublishRefusedError) {
        ctx.status = 422
        ctx.body = { ...errorBody(422, e.message.split('\n')[0]), errors: e.errors }
        return
      }
      throw e
    }
  }
  return Object.assign(route, { ccAnswer: answer })
}

/**
 * In development, an answer off its schema is logged with every problem (docs/decisions/0976): the
 * page still gets it, the developer sees the drift at once. Tests check every answer themselves.
 */
function checkAnswer(ctx: Context, answer: CcAnswerName): void {
  const body = ctx.body === undefined || ctx.body === null ? '' : JSON.stringify(ctx.body)
  const problems = ccAnswerProblems(answer, ctx.status, body)
  if (problems.length)
    log('error', 'cc answer off its schema', { route: `${ctx.method} ${ctx.path}`, problems })
}

/** A required query value, or 400 naming it. */
export function queryValue(ctx: Context, name: string): string {
  const v = ctx.query[name]
  if (typeof v !== 'string' || !v) throw new HttpError(400, `?${name}: is required`)
  return v
}
