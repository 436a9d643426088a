/**
 * The one Koa ↔ Vike glue. Koa resolves host + path to a Resolution; Vike renders it with our own
 * +onRenderHtml hook. Vike's route functions accept the page named by `resolution.view`.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Context } from 'koa'
import { renderPage } from 'vike/server'
import { errorInfo } from '../../engine/render/error-info'
import type { Resolution } from '../../engine/render/resolution'
import { pageEncodingFor } from '../http/page-encoding'
import { log } from '../log'
import { buildIdFor } from './builds'
import { type CachedPage, HtmlCache, ifNoneMatchHas } from './html-cache'

let productionEntryLoaded = false

/** Loads dist/server/entry.mjs (the production build) before the first render. */
export async function loadProductionBuild(projectRoot: string): Promise<void> {
  if (productionEntryLoaded) return
  const entry = join(projectRoot, 'dist', 'server', 'entry.mjs')
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
  const pageContext = await renderPage({
    // Vike sees the path only: the query string never reaches the render.
    urlOriginal: ctx.path,
    headersOriginal: ctx.headers,
    resolution,
    cspNonce: CSP_NONCE_PLACEHOLDER,
  })
  const response = pageContext.httpResponse
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
    const page: CachedPage = { status: ctx.status, headers, html, nonce, etag: HtmlCache.etagFor(key, nonce) }
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
