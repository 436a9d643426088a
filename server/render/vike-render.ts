/**
 * The one Koa ↔ Vike glue. Koa resolves host + path to a Resolution; Vike renders it with our own
 * +onRenderHtml hook. Vike's route functions accept the page named by `resolution.view`.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Context } from 'koa'
import { createDevMiddleware, renderPage } from 'vike/server'
import { errorInfo } from '../../engine/render/error-info'
import type { Resolution } from '../../engine/render/resolution'
import { pageEncodingFor } from '../http/page-encoding'
import { log } from '../log'
import { productionBuildDir } from '../runtime/production-build'
import { buildIdFor } from './builds'
import { type CachedPage, HtmlCache, ifNoneMatchHas } from './html-cache'

let productionEntryLoaded = false
let devRendering = false
let entryImported: Promise<unknown> | null = null

/** Vite's development middleware for Vike: pages then render through Vite, and no build is loaded. */
export async function createVikeDevMiddleware(
  options: Parameters<typeof createDevMiddleware>[0],
): ReturnType<typeof createDevMiddleware> {
  devRendering = true
  return createDevMiddleware(options)
}

/**
 * Vike's page renderer, with this checkout's own build loaded first when nothing loaded one (a server
 * made in process, as tests make it). Vike would otherwise find "the last build" through a file in
 * node_modules that every `vike build` sharing those node_modules rewrites (another release folder, a
 * second checkout), and render with that build, or fail when it is gone.
 */
export async function renderVikePage(
  context: { urlOriginal: string; headersOriginal: unknown } & Record<string, unknown>,
): ReturnType<typeof renderPage> {
  if (!devRendering && !productionEntryLoaded) {
    entryImported ??= (async () => {
      const entry = join(productionBuildDir(resolve(import.meta.dirname, '..', '..')), 'server', 'entry.mjs')
      if (existsSync(entry)) await import(pathToFileURL(entry).href)
    })()
    await entryImported
  }
  return renderPage(context as Parameters<typeof renderPage>[0])
}

/** Loads the production build's server/entry.mjs (`buildDir`: dist-<id>, decision 0332) before the first render. */
export async function loadProductionBuild(buildDir: string): Promise<void> {
  if (productionEntryLoaded) return
  const entry = join(buildDir, 'server', 'entry.mjs')
  if (!existsSync(entry)) throw new Error(`No production build at ${entry}: run npm run build`)
  await import(pathToFileURL(entry).href)
  productionEntryLoaded = true
}

/**
 * What the HTML carries in place of the CSP nonce while it is rendered; an uncached response swaps in
 * its own nonce (docs/decisions/0701), a cached page its entry's (docs/decisions/0530). Same length as
 * a real nonce (16 bytes, base64url).
 */
export const CSP_NONCE_PLACEHOLDER = 'fwCspNonce00000000000Q'

/** The HTML as sent: the placeholder replaced by this response's nonce. */
function withNonce(ctx: Context, html: string): string {
  const nonce = (ctx.state.cspNonce as string | undefined) ?? randomBytes(16).toString('base64url')
  return html.replaceAll(CSP_NONCE_PLACEHOLDER, nonce)
}

export async function renderResolution(ctx: Context, input: Resolution, cache?: HtmlCache): Promise<void> {
  // Security headers differ for the control center (server/http/security-headers.ts).
  ctx.state.internalBrand = input.brand?.vertical === 'internal'
  // The HTML must not depend on the query string (it is cached per route; click ids are unique per
  // visitor): the browser reads its query from location.search (docs/decisions/0503).
  const resolution: Resolution = { ...input, search: '', buildId: buildIdFor(input.snapshotId) }
  const key = cache ? HtmlCache.keyOf(resolution) : null
  const hit = key ? cache!.get(key) : undefined
  if (hit) {
    for (const [name, value] of hit.headers) ctx.set(name, value)
    ctx.set('X-Html-Cache', 'hit')
    markCachedAnswer(ctx, key!, hit)
    if (conditional(ctx, hit.etag)) return
    ctx.status = hit.status
    sendCachedPage(ctx, hit)
    return
  }
  const { response, pageContext } =
    renderDirect(ctx.path, resolution) ?? (await renderWithVike(ctx, resolution))
  const failed = !response || response.statusCode >= 500 || pageContext.errorWhileRendering
  if (failed) {
    if (pageContext.errorWhileRendering)
      log('error', 'render failed', {
        url: ctx.originalUrl,
        error: String((pageContext.errorWhileRendering as Error)?.stack ?? pageContext.errorWhileRendering),
      })
    if (!response) {
      ctx.status = 500
      ctx.type = 'text/plain'
      ctx.body = errorInfo(500).statusMessage
      return
    }
  }
  ctx.status = failed ? response.statusCode : resolution.statusCode
  const headers: [string, string][] = []
  for (const [name, value] of response.headers) {
    const lower = name.toLowerCase()
    // The server decides caching (HTML depends only on snapshot, brand, route and variant).
    // The server also decides the security headers (server/http/security-headers.ts).
    if (lower === 'content-length' || lower === 'cache-control' || lower === 'content-security-policy')
      continue
    headers.push([name, value])
    ctx.set(name, value)
  }
  if (key && !failed && ctx.status < 400) {
    const nonce = cache!.nonceFor(key)
    const html = Buffer.from(response.body.replaceAll(CSP_NONCE_PLACEHOLDER, nonce))
    const page: CachedPage = { status: ctx.status, headers, html, nonce, etag: HtmlCache.etagFor(html) }
    cache!.set(key, page)
    cache!
      .compress(key, page)
      .catch((e) => log('error', 'compressing a cached page failed', { error: String(e) }))
    ctx.set('X-Html-Cache', 'miss')
    markCachedAnswer(ctx, key, page)
    if (conditional(ctx, page.etag)) return
    ctx.body = html
    return
  }
  ctx.body = withNonce(ctx, response.body)
}

/** What a render answered: Vike's pageContext, or ours when rendered without Vike (renderDirect). */
interface Rendered {
  response: { statusCode: number; headers: [string, string][]; body: string } | null
  pageContext: { errorWhileRendering?: unknown }
}

async function renderWithVike(ctx: Context, resolution: Resolution): Promise<Rendered> {
  const pageContext = await renderVikePage({
    // Vike sees the path only: the query string never reaches the render.
    urlOriginal: ctx.path,
    headersOriginal: ctx.headers,
    resolution,
    cspNonce: CSP_NONCE_PLACEHOLDER,
  })
  const response = pageContext.httpResponse
  if (response && productionEntryLoaded && !directViews.has(resolution.pageId))
    learnDirectView(ctx.path, resolution, pageContext)
  return { response, pageContext }
}

/**
 * A page view rendered without Vike's renderPage (docs/decisions/0531). In production Vike's work
 * per request is the same for every render of a view: its route function reads our choice, it calls
 * our +onRenderHtml and injects the view's asset tags (the build's CSS links after <head>, the client
 * entry before </body>). The first render of each view goes through Vike; from it we keep the view's
 * Page, our hook, Vike's headers and the two tag fragments, after checking that our hook's HTML with
 * those fragments put where Vike puts them is Vike's answer byte for byte. Later renders of the view
 * call the hook directly. Anything unusual (dev, a path Vike might treat itself, a hook that throws
 * or returns something else, HTML whose shape Vike would inject into differently) goes through Vike.
 */
interface DirectView {
  Page: unknown
  onRenderHtml: (pageContext: DirectPageContext) => unknown
  headers: [string, string][]
  head: string
  body: string
}

interface DirectPageContext {
  Page: unknown
  resolution: Resolution
  cspNonce: string
  is404: false
}

/** Per Resolution.pageId: what renders it without Vike, or null when it always goes through Vike. */
const directViews = new Map<string, DirectView | null>()

/** Paths Vike routes by our choice only (no base URL, redirect, .pageContext.json or file-like path). */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-]+)*\/?$/

/**
 * What a view may define for a direct render: its route, page and render hook, and settings read by
 * the client build only (`client` is +client.ts, `isClientRuntimeLoaded` Vike's own). A view with
 * anything else (a server hook such as data, guard, onBeforeRender) stays with Vike.
 */
const KNOWN_EXPORTS = new Set([
  'Page',
  'onRenderHtml',
  'route',
  'client',
  'clientRouting',
  'clientHooks',
  'isClientRuntimeLoaded',
])

function learnDirectView(path: string, resolution: Resolution, pageContext: Record<string, unknown>): void {
  const response = pageContext.httpResponse as {
    statusCode: number
    body: string
    headers: [string, string][]
  }
  const exports = pageContext.exports as Record<string, unknown> | undefined
  // Not a plain render of the view: a later one may be.
  if (
    !PLAIN_PATH.test(path) ||
    response.statusCode !== 200 ||
    pageContext.errorWhileRendering ||
    pageContext.is404
  )
    return
  if (
    !exports ||
    typeof exports.onRenderHtml !== 'function' ||
    !Object.keys(exports).every((k) => KNOWN_EXPORTS.has(k)) ||
    typeof response.body !== 'string'
  ) {
    log('warn', 'page view stays with Vike (it has hooks a direct render does not run)', {
      pageId: resolution.pageId,
      exports: Object.keys(exports ?? {}),
    })
    directViews.set(resolution.pageId, null)
    return
  }
  const view: DirectView = {
    Page: pageContext.Page,
    onRenderHtml: exports.onRenderHtml as DirectView['onRenderHtml'],
    headers: response.headers.map(([n, v]) => [n, v]),
    head: '',
    body: '',
  }
  const ours = directHtml(view, resolution)
  const at = ours === null ? null : injectionPoints(ours)
  let learnt: DirectView | null = null
  if (ours !== null && at !== null) {
    const vike = response.body
    const extra = vike.length - ours.length
    const middle = ours.slice(at.head, at.body)
    const k = vike.indexOf(middle, at.head)
    if (extra >= 0 && k >= at.head && vike.startsWith(ours.slice(0, at.head))) {
      view.head = vike.slice(at.head, k)
      view.body = vike.slice(k + middle.length, k + middle.length + extra - view.head.length)
      if (ours.slice(0, at.head) + view.head + middle + view.body + ours.slice(at.body) === vike)
        learnt = view
    }
  }
  if (!learnt)
    log('warn', 'page view stays with Vike (its render differs from ours)', {
      pageId: resolution.pageId,
      exports: Object.keys(exports),
    })
  directViews.set(resolution.pageId, learnt)
}

function renderDirect(path: string, resolution: Resolution): Rendered | null {
  const view = directViews.get(resolution.pageId)
  if (!view || !PLAIN_PATH.test(path)) return null
  const html = directHtml(view, resolution)
  const at = html === null ? null : injectionPoints(html)
  if (html === null || at === null) return null
  const body =
    html.slice(0, at.head) + view.head + html.slice(at.head, at.body) + view.body + html.slice(at.body)
  return { response: { statusCode: 200, headers: view.headers, body }, pageContext: {} }
}

/** Our hook's document as a string, flattened as Vike does (renderHtml.js); null when not plain. */
function directHtml(view: DirectView, resolution: Resolution): string | null {
  let out: unknown
  try {
    out = view.onRenderHtml({ Page: view.Page, resolution, cspNonce: CSP_NONCE_PLACEHOLDER, is404: false })
  } catch {
    // Vike renders it again and answers with its own error handling.
    return null
  }
  if (!out || typeof out !== 'object' || Object.keys(out).length !== 1 || !('documentHtml' in out))
    return null
  const parts: string[] = []
  return flatten(out.documentHtml, parts) ? parts.join('') : null
}

function flatten(value: unknown, parts: string[]): boolean {
  if (!value || typeof value !== 'object') return false
  if ('_escaped' in value) {
    if (typeof value._escaped !== 'string') return false
    parts.push(value._escaped)
    return true
  }
  if (!('_template' in value)) return false
  const { templateStrings, templateVariables } = value._template as {
    templateStrings: readonly string[]
    templateVariables: unknown[]
  }
  for (let i = 0; i < templateVariables.length; i++) {
    parts.push(templateStrings[i]!)
    const v = templateVariables[i]
    if (typeof v === 'string') parts.push(escapeHtml(v))
    else if (!flatten(v, parts)) return false
  }
  parts.push(templateStrings[templateStrings.length - 1]!)
  return true
}

const HTML_SPECIAL = /[&<>"']/

/** Vike's escapeHtml (vike/dist/utils/escapeHtml.js); most values have nothing to escape. */
function escapeHtml(s: string): string {
  if (!HTML_SPECIAL.test(s)) return s
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;')
}

const HEAD_OPENING = /<head(>| [^>]*>)/i
const BODY_CLOSING = /<\/body>/i

/**
 * Where Vike puts its tags (injectHtmlTags.js): after the first <head …>, before the last </body>;
 * null when Vike would do anything else there (its placeholders, line-break padding).
 */
function injectionPoints(html: string): { head: number; body: number } | null {
  if (html.includes('__VITE_PLUGIN')) return null
  const head = HEAD_OPENING.exec(html)
  const body = BODY_CLOSING.exec(html)
  if (!head || !body) return null
  const at = { head: head.index + head[0].length, body: html.lastIndexOf(body[0]) }
  if (at.body < at.head || !plainLine(html, at.head) || !plainLine(html, at.body)) return null
  return at
}

/** The line before `end` neither starts nor ends with white space: Vike adds no padding there. */
function plainLine(html: string, end: number): boolean {
  const start = html.lastIndexOf('\n', end - 1) + 1
  if (start === end) return true
  return !/\s/.test(html[start]!) && !/\s/.test(html[end - 1]!)
}

/** What the page fast path learns from this answer (server/app.ts), and the nonce its CSP names. */
export interface CachedAnswer {
  key: string
  page: CachedPage
}

function markCachedAnswer(ctx: Context, key: string, page: CachedPage): void {
  ctx.state.cspNonce = page.nonce
  ctx.state.cachedPage = { key, page } satisfies CachedAnswer
}

/** The cached bytes in the encoding koa-compress would choose, precompressed once made. */
function sendCachedPage(ctx: Context, page: CachedPage): void {
  const encoding = pageEncodingFor(ctx.get('Accept-Encoding'), page.html.length)
  const body = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : undefined
  if (body) {
    // koa-compress leaves an answer that has its Content-Encoding alone.
    ctx.set('Content-Encoding', encoding!)
    ctx.body = body
  } else ctx.body = page.html
}

/**
 * The validator of a cacheable page: its ETag, and a 304 when the browser (or a cache in front)
 * already has it. True when answered. Cache-Control is the app's (server/app.ts).
 */
function conditional(ctx: Context, etag: string): boolean {
  ctx.set('ETag', etag)
  const asked = ctx.get('If-None-Match')
  if (!asked || !(ctx.method === 'GET' || ctx.method === 'HEAD')) return false
  if (!ifNoneMatchHas(asked, etag)) return false
  ctx.status = 304
  ctx.body = null
  return true
}
