/**
 * "Continue on another device" (docs/decisions/0222, 0232): a link signed with the server's secret
 * (HMAC, as preview grants are) that names the visitor's anonymous id, the funnel's path, the brand
 * host it was made on, when it was made and when it expires — never an answer. It grants only what it
 * must:
 * - it opens only on the host it was made on;
 * - it lives RESUME_LINK_DAYS (a few days by default), and dies earlier when its funnel is finished or
 *   the visitor starts over (funnel_resume_ends);
 * - the browser that opens it gets a fresh answer key marked `contact_hidden`: no response gives it the
 *   visitor's name, e-mail, phone or address until it has posted a step itself (they are asked again).
 * Opening a valid link sends the browser to the step `resumePoint` chooses; an expired, ended, foreign
 * or altered one to the first step with a short message, changing nothing else.
 */
import { join } from 'node:path'
import type Router from '@koa/router'
import type { Context } from 'koa'
import {
  FUNNEL_NOTICE_COOKIE,
  FUNNEL_NOTICE_RESUME_INVALID,
  RESUME_LINK_PREFIX,
} from '../../engine/constants'
import { readBuckets } from '../../engine/funnel/buckets'
import { funnelLocation, stepUrl } from '../../engine/funnel/funnel-location'
import { resumePoint } from '../../engine/funnel/resume'
import type { Resolution } from '../../engine/render/resolution'
import { requireStore } from '../api/require-store'
import type { AppDeps } from '../app-deps'
import { PreviewGrants } from '../control-center/services/preview-grants'
import { HttpError } from '../http/http-error'
import { readJsonBody } from '../http/read-json'
import { clientOf, originOf } from '../http/request-client'
import { signedToken, verifiedPayload } from '../http/signed-token'
import { loadBuckets, resumeLinksEndedAt } from '../store/answer-store'
import { checkSameOrigin } from './funnel-post'
import { ANONYMOUS_ID, adoptVisitor, claimVisitor } from './funnel-visitor'
import { brandIdForHost, resolveRequest } from './resolve-request'

/** The signing label: a preview grant never verifies as a resume link, nor the reverse. */
const RESUME_LABEL = 'fw-resume'
const FUNNEL_PATH = /^\/[a-z0-9/_-]{0,200}$/

export interface ResumeGrant {
  anonymousId: string
  /** The funnel page's URL path (its step, if any, is not where the link leads). */
  path: string
  /** The brand host the link was made on, lower case (with its port); it opens nowhere else. */
  host: string
  issuedAt: number
  expiresAt: number
}

const DAY_MS = 86_400_000

/** Signs and checks resume links; the key is the preview grants' secret, under another label. */
export class ResumeLinks {
  constructor(readonly secret: string) {}

  mint(
    grant: { anonymousId: string; path: string; host: string; days: number },
    now = Date.now(),
  ): { token: string; expiresAt: number } {
    const expiresAt = now + grant.days * DAY_MS
    const payload = Buffer.from(
      JSON.stringify({
        a: grant.anonymousId,
        p: grant.path,
        h: grant.host.toLowerCase(),
        i: now,
        e: expiresAt,
      }),
    ).toString('base64url')
    return { token: signedToken(this.secret, RESUME_LABEL, payload), expiresAt }
  }

  /** The grant of a valid, unexpired link made on `host`; null for anything else. Never throws. */
  verify(token: string, host: string, now = Date.now()): ResumeGrant | null {
    const payload = verifiedPayload(this.secret, RESUME_LABEL, token)
    if (payload === null) return null
    try {
      const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
      if (typeof p.a !== 'string' || !ANONYMOUS_ID.test(p.a)) return null
      if (typeof p.p !== 'string' || !FUNNEL_PATH.test(p.p)) return null
      if (typeof p.e !== 'number' || p.e <= now) return null
      if (typeof p.i !== 'number' || typeof p.h !== 'string' || p.h !== host.toLowerCase()) return null
      return { anonymousId: p.a, path: p.p, host: p.h, issuedAt: p.i, expiresAt: p.e }
    } catch {
      return null
    }
  }
}

const links = new WeakMap<AppDeps, ResumeLinks>()

/** The app's resume links, keyed like its preview grants (PREVIEW_SECRET or DATA_DIR/preview.key). */
export function resumeLinksOf(deps: AppDeps): ResumeLinks {
  let made = links.get(deps)
  if (!made) {
    const secret =
      deps.content?.previews.secret ??
      PreviewGrants.fromConfig(deps.config.previewSecret, join(deps.config.dataDir, 'preview.key')).secret
    made = new ResumeLinks(secret)
    links.set(deps, made)
  }
  return made
}

/**
 * POST /api/funnel/resume-link {anonymousId, path}: a resume link for this browser's answers on the
 * funnel page at `path` of this host (the page's URL path, with or without its step; same origin; the
 * browser must hold the id's key, as for the answer sync). Answers `{url, expiresAt, mailto}`: the
 * `mailto:` says in the funnel's language what the link gives and for how long.
 */
export function funnelResumeLinkApi(router: Router, deps: AppDeps): void {
  router.post('/api/funnel/resume-link', async (ctx: Context) => {
    ctx.set('Cache-Control', 'no-store')
    checkSameOrigin(ctx)
    const store = requireStore(ctx, deps)
    const body = (await readJsonBody(ctx, 1024)) as Record<string, unknown> | null
    const anonymousId = body?.anonymousId
    const path = body?.path
    if (typeof anonymousId !== 'string' || !ANONYMOUS_ID.test(anonymousId))
      throw new HttpError(400, 'anonymousId: 8 to 64 letters, digits, "-" or "_" expected')
    if (typeof path !== 'string' || !FUNNEL_PATH.test(path))
      throw new HttpError(400, 'path: the funnel page path, e.g. /quiz/otc')
    const host = clientOf(ctx).host
    const snapshot = deps.snapshots.current
    const target = resolveRequest(
      snapshot,
      { host, brandId: brandIdForHost(snapshot, host), pathname: path, search: '', port: deps.config.port },
      { brandIndex: false, thirdParty: { tagManagerUrl: '', adScriptUrl: null, marketplace: false } },
    )
    if (target.view !== 'funnel' || !target.funnel)
      throw new HttpError(400, `path: ${path} is not a funnel page of this site`)
    const id = await claimVisitor(ctx, store.db, anonymousId)
    if (!id) throw new HttpError(409, 'anonymousId: these answers belong to another browser')
    const days = deps.config.resumeLinkDays
    const { token, expiresAt } = resumeLinksOf(deps).mint({ anonymousId: id, path, host, days })
    const url = `${originOf(ctx)}${RESUME_LINK_PREFIX}${token}`
    const text = target.funnel.text.funnel
    const mailBody = fillText(text.resumeLinkMailBody, { url, days: String(days) })
    ctx.body = {
      url,
      expiresAt: new Date(expiresAt).toISOString(),
      mailto: `mailto:?subject=${encodeURIComponent(text.continueElsewhere)}&body=${encodeURIComponent(mailBody)}`,
    }
  })
}

/** `{name}` placeholders of a text filled in. */
const fillText = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole)

/**
 * GET /_resume/<token> on a brand's host. `resolve` resolves a path of this host (a funnel page or not).
 */
export async function openResumeLink(
  ctx: Context,
  deps: AppDeps,
  resolve: (pathname: string) => Resolution,
): Promise<void> {
  ctx.set('Cache-Control', 'no-store')
  ctx.set('Referrer-Policy', 'no-referrer')
  const token = ctx.path.slice(RESUME_LINK_PREFIX.length)
  const store = deps.store
  const verified = resumeLinksOf(deps).verify(token, clientOf(ctx).host)
  // A link made before its funnel was finished or started over is over too.
  const ended = verified && store ? await resumeLinksEndedAt(store.db, verified.anonymousId) : null
  const grant = verified && (ended === null || ended < verified.issuedAt) ? verified : null
  const target = grant ? resolve(grant.path) : null
  const funnel = target?.view === 'funnel' ? target.funnel : undefined
  if (!grant || !target || !funnel || !target.page || !store) {
    // Expired or altered: start the funnel the link would name (when it can be read), else the home page.
    const fallback = readablePath(token)
    const first = fallback ? resolve(fallback) : null
    ctx.cookies.set(FUNNEL_NOTICE_COOKIE, FUNNEL_NOTICE_RESUME_INVALID, {
      maxAge: 60_000,
      httpOnly: false,
      sameSite: 'lax',
      secure: clientOf(ctx).protocol === 'https',
      overwrite: true,
    })
    ctx.status = 303
    const steps = first?.view === 'funnel' && first.funnel ? first.funnel.steps.map((s) => s.name) : null
    ctx.redirect(
      first && steps && fallback
        ? stepUrl(funnelLocation(fallback, first.params, steps).basePath, steps[0])
        : '/',
    )
    return
  }
  // This browser gets a key of its own, without the contact details until it posts a step (0232).
  await adoptVisitor(ctx, store.db, grant.anonymousId)
  const buckets = await loadBuckets(store.db, grant.anonymousId)
  const base = funnelLocation(
    grant.path,
    target.params,
    funnel.steps.map((s) => s.name),
  ).basePath
  const point = await resumePoint(
    funnel,
    {
      name: target.page.key,
      template: target.page.template,
      destination: target.page.destination ?? '/',
      allowExternalDestination: target.page.allowExternalDestination === true,
    },
    readBuckets(buckets, funnel.formVersion),
  )
  ctx.status = 303
  ctx.redirect(stepUrl(base, funnel.steps[point.stepIndex].name))
}

/** The path an unverified token claims, only to choose which funnel to start; nothing else is trusted. */
function readablePath(token: string): string | null {
  try {
    const p = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as { p?: unknown }
    return typeof p.p === 'string' && FUNNEL_PATH.test(p.p) ? p.p : null
  } catch {
    return null
  }
}
