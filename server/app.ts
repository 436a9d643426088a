import type { RequestListener } from 'node:http'
import { constants as zlibConstants } from 'node:zlib'
import Router from '@koa/router'
import Koa, { type Context } from 'koa'
import compress from 'koa-compress'
import {
  EXPERIMENT_COOKIE_MAX_AGE_MS,
  EXPERIMENT_HTML_CACHE_CONTROL,
  NEW_VISITORS_PER_WINDOW,
  NEW_VISITORS_WINDOW_MS,
  PREVIEW_INVALID_STATUS_MESSAGE,
  publicHtmlCacheControl,
  RESUME_LINK_PREFIX,
} from '../engine/constants'
import { experimentCookieName } from '../engine/experiments/variants'
import { errorInfo } from '../engine/render/error-info'
import type { Resolution } from '../engine/render/resolution'
import { checksReadQuery } from '../engine/routing/route-middleware'
import { registerApis } from './api'
import type { AppDeps } from './app-deps'
import type { ServerConfig } from './config'
import { IMAGE_UPLOAD_PATHS } from './control-center/api/images'
import { controlCenterPages } from './control-center/render/control-center-page'
import { refuseControlCharacters } from './http/control-characters'
import { errorBody, HttpError, type HttpErrorExtras } from './http/http-error'
import { PageFastPath } from './http/page-fast-path'
import { RateLimiter } from './http/rate-limiter'
import { lingerOnClose } from './http/read-json'
import { sameSitePath } from './http/redirect'
import { clientOf, requestClientMiddleware } from './http/request-client'
import { sameOriginWrites } from './http/same-origin-writes'
import { controlCenterOrigins, type SecurityHeaderOptions, securityHeaders } from './http/security-headers'
import { log } from './log'
import type { RouteKind } from './metrics/request-metrics'
import { seoFiles } from './middleware/seo-files'
import { uploadedImages } from './middleware/uploaded-images'
import { buildFiles, payloadPagePath, sendPayload } from './render/builds'
import { funnelPostHandler } from './render/funnel-post'
import { openResumeLink } from './render/funnel-resume'
import { visitorPage } from './render/funnel-visitor-page'
import { HtmlCache } from './render/html-cache'
import { type PreviewRequest, previewRequest, setPreviewHeaders, withGrantOnUploads } from './render/preview'
import {
  assignmentToKeep,
  brandIdForHost,
  errorResolution,
  type RequestFacts,
  resolveRequest,
} from './render/resolve-request'
import { type CachedAnswer, renderResolution } from './render/vike-render'

/** Brotli quality for responses compressed per request (0–11; 11 costs ~60× the CPU of 4). */
const DYNAMIC_BROTLI_QUALITY = 4

/**
 * The server's request listener: cached pages answered on the fast path before Koa
 * (docs/decisions/0530), everything else by the Koa app.
 */
export function createRequestListener(deps: AppDeps): {
  listener: RequestListener
  app: Koa
  fastPath?: PageFastPath
} {
  const parts = appParts(deps)
  const app = createApp(deps, parts)
  const listener = parts.fastPath
    ? parts.fastPath.listener(app.callback(), deps.metrics?.requests)
    : app.callback()
  deps.metrics?.watch({ pageCache: parts.htmlCache, fastPath: parts.fastPath })
  return { listener, app, fastPath: parts.fastPath }
}

interface AppParts {
  htmlCache?: HtmlCache
  fastPath?: PageFastPath
  security: SecurityHeaderOptions
}

function appParts(deps: AppDeps, withFastPath = true): AppParts {
  const { config, snapshots } = deps
  let framers: { snapshot: unknown; origins: string[] } | undefined
  const security: SecurityHeaderOptions = {
    htmlPolicy: config.mode === 'production',
    frameAncestors: () => {
      const snapshot = snapshots.current
      if (framers?.snapshot !== snapshot)
        framers = { snapshot, origins: controlCenterOrigins(snapshot.brands.values()) }
      return framers.origins
    },
  }
  // Rendered HTML per (snapshot, brand, route, variant); off under Vite, whose code changes on edit.
  // Its nonces come from the preview secret a fleet shares, so every instance sends a page's same
  // bytes and ETag: a browser or cache moving between instances still gets its 304 (decision 0530).
  const sharedSecret = config.previewSecret ?? deps.content?.previews.secret
  const htmlCache =
    config.mode === 'production' && config.htmlCache
      ? new HtmlCache(undefined, undefined, sharedSecret ? HtmlCache.nonceKeyFrom(sharedSecret) : undefined)
      : undefined
  const fastPath =
    htmlCache && withFastPath
      ? new PageFastPath({
          cache: htmlCache,
          snapshots,
          trustedProxies: config.trustedProxies,
          security,
          closing: deps.closing,
        })
      : undefined
  if (htmlCache)
    snapshots.onChange(() => {
      htmlCache.clear()
      fastPath?.clear()
    })
  return { htmlCache, fastPath, security }
}

/** Builds the Koa app without listening (tests use it on an ephemeral port). */
export function createApp(deps: AppDeps, parts: AppParts = appParts(deps, false)): Koa {
  const { config, snapshots } = deps
  const { htmlCache, fastPath } = parts
  deps.newVisitors ??= new RateLimiter(
    config.newVisitorLimit ?? NEW_VISITORS_PER_WINDOW,
    NEW_VISITORS_WINDOW_MS,
  )
  const publicCacheControl = publicHtmlCacheControl(config.sharedMaxAgeS, config.sharedStaleS)
  const app = new Koa()
  // Never Koa's own reading of X-Forwarded-*: one rule for client IP, host and protocol instead.
  app.proxy = false
  app.silent = true

  app.use(async (ctx, next) => {
    try {
      await next()
    } finally {
      if (deps.closing?.()) ctx.set('Connection', 'close')
    }
  })
  app.use(requestClientMiddleware(config.trustedProxies))
  app.use(securityHeaders(parts.security))
  app.use(async (ctx, next) => {
    const started = performance.now()
    try {
      await next()
    } catch (err) {
      const e = err as Error & { status?: number; expose?: boolean } & HttpErrorExtras
      const status = e.status && e.status >= 400 && e.status < 600 ? e.status : 500
      // Our own 5xx (an upstream down, no store) is expected: one line. Anything else is a bug: the stack.
      if (status >= 500 && err instanceof HttpError)
        log('warn', 'request failed', { method: ctx.method, url: ctx.originalUrl, status, error: e.message })
      else if (status >= 500)
        log('error', 'request failed', {
          method: ctx.method,
          url: ctx.originalUrl,
          error: e.stack ?? String(e),
        })
      ctx.status = status
      for (const [name, value] of Object.entries(e.headers ?? {})) ctx.set(name, String(value))
      // The request body was not read to its end: this connection cannot carry another request. It is
      // closed lingering, so a client still sending gets this answer rather than a reset (a 2 MB
      // event body, issue 36).
      if (e.close) {
        ctx.set('Connection', 'close')
        lingerOnClose(ctx)
      }
      const exposed = e.expose ?? status < 500
      const message = exposed ? e.message : errorInfo(status).statusMessage
      if (ctx.path.startsWith('/api/') || !ctx.accepts('html')) {
        ctx.body = errorBody(status, message, exposed ? e.problems : undefined)
      } else {
        try {
          await renderResolution(
            ctx,
            errorResolution(
              snapshots.current,
              null,
              factsOf(ctx, deps),
              resolveOpts(config),
              errorInfo(status, message),
            ),
          )
          ctx.status = status
        } catch {
          ctx.type = 'text/plain'
          ctx.body = message
        }
      }
    } finally {
      deps.metrics?.requests.record(routeKindOf(ctx), ctx.status, started)
      if (config.logLevel === 'debug')
        log('debug', 'request', {
          method: ctx.method,
          url: ctx.originalUrl,
          status: ctx.status,
          ms: Math.round(performance.now() - started),
        })
    }
  })

  // Dynamic responses (API JSON, uncached HTML): brotli at quality 4, cheap enough per request.
  // Cached HTML and static files arrive already compressed at higher levels (html-cache, static-files).
  app.use(
    compress({
      threshold: 1024,
      br: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
      gzip: { level: 6 },
    }),
  )

  app.use(refuseControlCharacters())
  app.use(sameOriginWrites({ rawBodyPaths: IMAGE_UPLOAD_PATHS }))

  const router = new Router()
  router.get('/healthz', (ctx) => {
    ctx.set('Cache-Control', 'no-store')
    // A refused commit on published (docs/decisions/0610): what serves, what was refused and why.
    const live = deps.content?.live.health()
    ctx.body = {
      status: 'ok',
      snapshot: snapshots.current.id,
      commit: deps.liveCommit?.() ?? live?.serving ?? null,
      content: live?.content ?? 'ok',
      ...(live?.refused ? { serving: live.serving, refused: live.refused } : {}),
      uptimeSeconds: Math.round(process.uptime()),
      mode: config.mode,
      // What the HTML cache and the fast path in front of this chain answered (docs/decisions/0530).
      pageCache: htmlCache
        ? {
            entries: htmlCache.size,
            hits: htmlCache.hits,
            misses: htmlCache.misses,
            fastHits: fastPath?.hits ?? 0,
          }
        : null,
    }
  })
  registerApis(router, deps)
  router.all('/api/{*rest}', (ctx) => {
    ctx.status = 404
    ctx.body = errorBody(404, `No API at ${ctx.method} ${ctx.path}`)
  })
  app.use(router.routes())
  app.use(router.allowedMethods())

  // Host → brand, once per request: the build meta, the SEO files and the page all read it.
  app.use(async (ctx, next) => {
    ctx.state.brandId = brandIdForHost(snapshots.current, clientOf(ctx).host)
    // What answers from here to the control center's screens is a file: a build, an image, an asset.
    ctx.state.routeKind = 'asset' satisfies RouteKind
    await next()
  })
  // Uploaded images live in the content repository only (docs/decisions/0920).
  app.use(
    uploadedImages(
      () => deps.content,
      () => deps.store,
    ),
  )
  app.use(buildFiles(snapshots))
  if (deps.assets) app.use(deps.assets)
  app.use(seoFiles(() => snapshots.current))
  app.use((ctx, next) => {
    const internal = snapshots.current.brands.get(ctx.state.brandId ?? '')?.vertical === 'internal'
    ctx.state.routeKind = (internal ? 'control-center' : 'page') satisfies RouteKind
    return next()
  })
  // The control center's screens on its own brand (docs/decisions/0604): signed-in, never cached.
  app.use(controlCenterPages(deps, (ctx) => factsOf(ctx, deps), resolveOpts(config)))

  // A funnel step posted as a plain form: before hydration or without JavaScript (docs/decisions/0216).
  const postFunnelStep = funnelPostHandler(deps)
  app.use(async (ctx, next) => {
    if (ctx.method !== 'POST') return next()
    const resolution = resolveRequest(snapshots.current, factsOf(ctx, deps), resolveOpts(config))
    if (resolution.view !== 'funnel' || !resolution.funnel || !resolution.page) return next()
    await postFunnelStep(ctx, resolution)
  })

  // A resume link opened on any device (docs/decisions/0222).
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || !ctx.path.startsWith(RESUME_LINK_PREFIX)) return next()
    await openResumeLink(ctx, deps, (pathname) =>
      resolveRequest(snapshots.current, { ...factsOf(ctx, deps), pathname, search: '' }, resolveOpts(config)),
    )
  })

  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next()
    // One canonical URL per page: drop a trailing slash (keeps the query string).
    if (ctx.path.length > 1 && ctx.path.endsWith('/')) {
      ctx.status = 301
      ctx.redirect(sameSitePath(ctx.path.replace(/\/+$/, '')) + (ctx.search ?? ''))
      return
    }
    const payloadFor = payloadPagePath(ctx.path)
    const facts = factsOf(ctx, deps)
    const pathname = payloadFor ?? facts.pathname
    const preview = payloadFor ? null : await previewRequest(ctx, deps)
    if (preview) {
      await renderPreview(ctx, preview, { ...facts, pathname, search: preview.search }, config, snapshots)
      return
    }
    const snapshot = snapshots.current
    const resolution = resolveRequest(snapshot, { ...facts, pathname }, resolveOpts(config))
    if (resolution.view === 'funnel') ctx.state.routeKind = 'funnel' satisfies RouteKind
    if (resolution.page && !resolution.page.indexable) ctx.set('X-Robots-Tag', 'noindex')
    if (payloadFor) {
      sendPayload(ctx, resolution)
      keepAssignment(ctx, resolution, facts)
      return
    }
    // A funnel step or thank-you page of a visitor whose answers the server holds: theirs alone (0230).
    const personal = await visitorPage(ctx, deps, resolution)
    if (personal === 'answered') return
    if (personal) {
      await renderResolution(ctx, personal)
      keepAssignment(ctx, resolution, facts)
      ctx.set('Cache-Control', 'no-store')
      return
    }
    await renderResolution(ctx, resolution, htmlCache)
    keepAssignment(ctx, resolution, facts)
    // A page under experiment differs per visitor (by cookie): shared caches must not keep it.
    if (resolution.experiment) ctx.vary('Cookie')
    // A public page may be kept by a cache in front for a while (docs/decisions/0511).
    ctx.set(
      'Cache-Control',
      ctx.status !== 200 && ctx.status !== 304
        ? 'no-store'
        : resolution.experiment
          ? EXPERIMENT_HTML_CACHE_CONTROL
          : publicCacheControl,
    )
    // The same request again can be answered before this chain (docs/decisions/0530).
    const cached = ctx.state.cachedPage as CachedAnswer | undefined
    if (
      fastPath &&
      cached &&
      ctx.status === 200 &&
      ctx.method === 'GET' &&
      resolution.brand &&
      resolution.brand.vertical !== 'internal' &&
      !ctx.response.get('Set-Cookie') &&
      !resolution.experiment?.preview
    )
      fastPath.learn({
        snapshotId: snapshot.id,
        brandId: resolution.brand.id,
        pathname,
        kind: resolution.view === 'funnel' ? 'funnel' : 'page',
        hadQuery: facts.search !== '',
        queryChecked: checksReadQuery(resolution.page?.validate),
        experiment: resolution.experiment
          ? { cookie: experimentCookieName(resolution.experiment.id), variant: resolution.experiment.variant }
          : null,
        key: cached.key,
        page: cached.page,
        headers: rawHeaderNames(ctx.res).map((n) => [n, String(ctx.res.getHeader(n))]),
      })
  })

  return app
}

/**
 * A branch preview: the branch's snapshot (never the HTML cache), no tag manager, ad script or
 * phone requests, and headers that keep it private. A branch that does not build shows why.
 */
async function renderPreview(
  ctx: Context,
  preview: PreviewRequest,
  facts: RequestFacts,
  config: ServerConfig,
  snapshots: AppDeps['snapshots'],
): Promise<void> {
  const opts = resolveOpts(config)
  const quiet = {
    ...opts,
    thirdParty: { ...opts.thirdParty, adScriptUrl: null, marketplace: false },
    branchPreview: true,
  }
  const resolution = preview.snapshot
    ? resolveRequest(preview.snapshot, facts, quiet)
    : errorResolution(
        snapshots.current,
        snapshots.current.brands.get(facts.brandId ?? '') ?? null,
        facts,
        quiet,
        {
          statusCode: 409,
          statusMessage: PREVIEW_INVALID_STATUS_MESSAGE,
          message: `Branch "${preview.info.branch}"${preview.info.drafts ? ' with your unsaved changes' : ''} has ${preview.errors} problem${preview.errors === 1 ? '' : 's'} to fix before it can be previewed.`,
        },
      )
  await renderResolution(ctx, { ...resolution, preview: preview.info })
  if (typeof ctx.body === 'string') ctx.body = withGrantOnUploads(ctx.body, preview.token)
  setPreviewHeaders(ctx)
}

/** The kind a middleware marked the request with, else what its path says (docs/decisions/0710). */
function routeKindOf(ctx: Context): RouteKind {
  const marked: RouteKind | undefined = ctx.state.routeKind
  if (marked) return marked
  const path = ctx.path
  if (path.startsWith('/api/')) {
    if (path.startsWith('/api/cc/') || path.startsWith('/api/_auth/')) return 'control-center'
    return path.startsWith('/api/_ops/') ? 'ops' : 'api'
  }
  return path === '/healthz' ? 'health' : 'other'
}

/** Header names as set (Node ≥ 15.13 has getRawHeaderNames; @types/node 20 omits it). */
function rawHeaderNames(res: Context['res']): string[] {
  const r = res as Context['res'] & { getRawHeaderNames?: () => string[] }
  return r.getRawHeaderNames?.() ?? r.getHeaderNames()
}

/** A visitor shown a variant for the first time keeps it (docs/decisions/0105). */
function keepAssignment(ctx: Context, resolution: Resolution, facts: RequestFacts): void {
  const keep = ctx.status === 200 ? assignmentToKeep(resolution, facts) : null
  if (keep)
    ctx.cookies.set(keep.cookie, keep.variant, {
      maxAge: EXPERIMENT_COOKIE_MAX_AGE_MS,
      httpOnly: true,
      sameSite: 'lax',
      overwrite: true,
    })
}

function factsOf(ctx: Context, deps: AppDeps): RequestFacts {
  let pathname = ctx.path
  try {
    pathname = decodeURI(ctx.path)
  } catch {}
  return {
    host: clientOf(ctx).host,
    brandId: ctx.state.brandId ?? null,
    pathname,
    search: ctx.search ?? '',
    port: deps.getPort?.() ?? deps.config.port,
    cookie: (name: string) => ctx.cookies.get(name),
  }
}

function resolveOpts(config: ServerConfig) {
  return {
    brandIndex: config.brandIndex,
    thirdParty: {
      tagManagerUrl: config.tagManagerUrl,
      adScriptUrl: config.adScriptUrl,
      marketplace: config.mediaalphaBaseUrl !== null,
    },
  }
}
