import { createReadStream, type Stats, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, gzip, constants as zlib } from 'node:zlib'
import type { Context, Middleware } from 'koa'

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

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.txt', '.webmanifest'])
/**
 * Larger files are streamed as they are (and left to the compression middleware): brotli 11 on a
 * multi-megabyte file would hold a thread-pool thread for seconds. The largest chunk is ~220 KB.
 */
const PRECOMPRESS_MAX_BYTES = 1024 * 1024

interface Encoded {
  br: Buffer
  gzip: Buffer
}
type EncodedCache = Map<string, { version: string; forms: Promise<Encoded> }>

const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * Brotli (quality 11) and gzip (level 9) forms of a text file, made once per file version and kept in
 * memory: the build's assets are immutable and total about a megabyte, while compressing react-dom
 * at brotli 11 costs ~0.4 s of CPU, which used to be paid on every request. Compression runs on
 * libuv's thread pool, so the first request for a file does not stall the others; concurrent first
 * requests share one compression.
 */
function encodedFormsOf(cache: EncodedCache, full: string, st: Stats): Promise<Encoded> {
  const version = `${st.mtimeMs}:${st.size}`
  const hit = cache.get(full)
  if (hit?.version === version) return hit.forms
  const forms = readFile(full).then(async (bytes) => {
    const [br, gz] = await Promise.all([
      brotliAsync(bytes, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }),
      gzipAsync(bytes, { level: 9 }),
    ])
    return { br, gzip: gz }
  })
  const entry = { version, forms }
  // A failed read or compression is not kept (unless a newer version replaced it meanwhile).
  forms.catch(() => {
    if (cache.get(full) === entry) cache.delete(full)
  })
  cache.set(full, entry)
  return forms
}

/** Our preference, not the header's order: browsers list `gzip, deflate, br` and brotli is smaller. */
function acceptedEncoding(ctx: Context): 'br' | 'gzip' | null {
  if (ctx.acceptsEncodings('br') === 'br') return 'br'
  return ctx.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : null
}

/**
 * Serves files from `root` for GET/HEAD. Files under /assets/ carry a content hash in their name and
 * get immutable cache headers; other public files are cached for an hour. Text files go out
 * precompressed (brotli or gzip, whichever the client accepts), compressed once per file version.
 */
export function staticFiles(root: string): Middleware {
  const base = normalize(root + sep)
  const encoded: EncodedCache = new Map()
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
    let st: Stats | undefined
    try {
      // Most requests here are pages, not files: no exception object for a path that does not exist.
      st = statSync(full, { throwIfNoEntry: false })
    } catch {
      return next()
    }
    if (!st?.isFile()) return next()
    ctx.set('Cache-Control', pathname.startsWith('/assets/') ? IMMUTABLE_CACHE : PUBLIC_CACHE)
    ctx.set('Last-Modified', st.mtime.toUTCString())
    const ext = extname(full).toLowerCase()
    ctx.type = TYPES[ext] ?? 'application/octet-stream'
    const compressible = COMPRESSIBLE.has(ext) && st.size <= PRECOMPRESS_MAX_BYTES
    if (compressible) ctx.vary('Accept-Encoding')
    // Koa only answers `fresh` for a 2xx status, and nothing has set one yet.
    ctx.status = 200
    if (ctx.fresh) {
      ctx.status = 304
      return
    }
    const encoding = compressible ? acceptedEncoding(ctx) : null
    const forms = encoding ? await encodedFormsOf(encoded, full, st).catch(() => null) : null
    if (encoding && forms) {
      ctx.set('Content-Encoding', encoding)
      // Koa sends only the headers (with this length) for HEAD.
      ctx.body = forms[encoding]
      return
    }
    ctx.body = createReadStream(full)
    ctx.length = st.size
  }
}
