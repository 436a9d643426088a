/**
 * The one Koa ↔ Vike glue. Koa resolves host + path to a Resolution; Vike renders it with our own
 * +onRenderHtml hook. Vike's route functions accept the page named by `resolution.view`.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Context } from 'koa'
import { renderPage } from 'vike/server'
import { errorInfo } from '../../engine/render/error-info'
import type { Resolution } from '../../engine/render/resolution'
import { log } from '../log'

let productionEntryLoaded = false

/** Loads dist/server/entry.mjs (the production build) before the first render. */
export async function loadProductionBuild(projectRoot: string): Promise<void> {
  if (productionEntryLoaded) return
  const entry = join(projectRoot, 'dist', 'server', 'entry.mjs')
  if (!existsSync(entry)) throw new Error(`No production build at ${entry}: run npm run build`)
  await import(pathToFileURL(entry).href)
  productionEntryLoaded = true
}

export async function renderResolution(ctx: Context, resolution: Resolution): Promise<void> {
  const pageContext = await renderPage({
    urlOriginal: ctx.originalUrl,
    headersOriginal: ctx.headers,
    resolution,
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
  for (const [name, value] of response.headers) {
    const lower = name.toLowerCase()
    // The server decides caching (HTML depends only on snapshot, brand, route and variant).
    if (lower === 'content-length' || lower === 'cache-control') continue
    ctx.set(name, value)
  }
  ctx.body = response.body
}
