import { createReadStream, type Stats, statSync } from 'node:fs'
import { extname, join, normalize, sep } from 'node:path'
import type { Middleware } from 'koa'

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
}

export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable'
export const PUBLIC_CACHE = 'public, max-age=3600'

/**
 * Serves files from `root` for GET/HEAD. Files under /assets/ carry a content hash in their name and
 * get immutable cache headers; other public files are cached for an hour.
 */
export function staticFiles(root: string): Middleware {
  const base = normalize(root + sep)
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next()
    let pathname: string
    try {
      pathname = decodeURIComponent(ctx.path)
    } catch {
      return next()
    }
    if (pathname.endsWith('/') || pathname.includes('\0')) return next()
    const full = normalize(join(base, pathname))
    if (!full.startsWith(base)) return next()
    let st: Stats
    try {
      st = statSync(full)
    } catch {
      return next()
    }
    if (!st.isFile()) return next()
    ctx.set('Cache-Control', pathname.startsWith('/assets/') ? IMMUTABLE_CACHE : PUBLIC_CACHE)
    ctx.set('Last-Modified', st.mtime.toUTCString())
    ctx.type = TYPES[extname(full).toLowerCase()] ?? 'application/octet-stream'
    ctx.length = st.size
    if (ctx.fresh) {
      ctx.status = 304
      return
    }
    ctx.body = ctx.method === 'HEAD' ? null : createReadStream(full)
    if (ctx.method === 'HEAD') ctx.length = st.size
  }
}
