/**
 * Security headers on every response, by kind (docs/decisions/0701):
 * - every answer: `X-Content-Type-Options: nosniff`, `Referrer-Policy`, HSTS when served over HTTPS;
 * - HTML: a Content-Security-Policy whose scripts must carry this response's nonce (or be loaded by one
 *   that does: 'strict-dynamic', which is how the tag manager's and the ad script's own scripts load);
 *   `frame-ancestors` lets only the control center frame a page, and nobody frame the control center;
 * - anything else (JSON, files): `default-src 'none'; frame-ancestors 'none'`.
 *
 * The nonce is made per response (ctx.state.cspNonce), except for a page from the HTML cache, which
 * carries the nonce of its cache entry (docs/decisions/0530); the renderer writes it into the HTML
 * (server/render/vike-render.ts swaps CSP_NONCE_PLACEHOLDER for it). The page fast path
 * (server/http/page-fast-path.ts) sends the same headers through pageSecurityHeaders.
 */
import { randomBytes } from 'node:crypto'
import type { Context, Middleware } from 'koa'
import { clientOf } from './request-client'

/** A year: browsers remember HTTPS-only for the host this long. */
const HSTS_MAX_AGE_S = 31_536_000

export interface SecurityHeaderOptions {
  /** Origins (CSP source expressions) allowed to frame public pages besides the page's own. */
  frameAncestors: () => readonly string[]
  /**
   * Send the pages' CSP. Off under Vite's dev server, whose injected scripts (HMR client, React
   * refresh, error overlay) carry no nonce.
   */
  htmlPolicy: boolean
}

/** The CSP of an HTML page. */
export function htmlPolicy(nonce: string, frameAncestors: readonly string[]): string {
  return [
    "default-src 'self'",
    // CSP3 browsers use the nonce + 'strict-dynamic'; 'self' https: is for browsers before CSP3.
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'self' https:`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // Brand themes and React set style attributes; third-party tags load their own styles.
    "style-src 'self' 'unsafe-inline' https:",
    "img-src 'self' data: https:",
    "font-src 'self' data: https:",
    "connect-src 'self' https:",
    // Brand pages in the control center's preview: https sites, and local brand hosts in development.
    'frame-src https: http://*.localhost:*',
    `frame-ancestors ${frameAncestors.length ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ')
}

export const NON_HTML_POLICY = "default-src 'none'; frame-ancestors 'none'"

/** Nonces are cut from a block of random bytes, 16 bytes each, each byte used once. */
const NONCE_BYTES = 16
const NONCE_BLOCK = 256
let nonceBlock = Buffer.alloc(0)
let nonceAt = 0

/** 16 random bytes, base64url: one CSPRNG call per NONCE_BLOCK nonces instead of one per response. */
function newNonce(): string {
  if (nonceAt + NONCE_BYTES > nonceBlock.length) {
    nonceBlock = randomBytes(NONCE_BYTES * NONCE_BLOCK)
    nonceAt = 0
  }
  nonceAt += NONCE_BYTES
  return nonceBlock.toString('base64url', nonceAt - NONCE_BYTES, nonceAt)
}

export function securityHeaders(opts: SecurityHeaderOptions): Middleware {
  return async (ctx, next) => {
    const nonce = newNonce()
    ctx.state.cspNonce = nonce
    try {
      await next()
    } finally {
      // A cached page brings its entry's nonce (the one written in its HTML).
      setHeaders(ctx, (ctx.state.cspNonce as string | undefined) ?? nonce, opts)
    }
  }
}

const REFERRER_POLICY = 'strict-origin-when-cross-origin'

function setHeaders(ctx: Context, nonce: string, opts: SecurityHeaderOptions): void {
  ctx.set('X-Content-Type-Options', 'nosniff')
  // A response may ask for less (a preview carries its grant in the URL: no-referrer).
  if (!ctx.response.get('Referrer-Policy')) ctx.set('Referrer-Policy', REFERRER_POLICY)
  if (ctx.state.client && clientOf(ctx).protocol === 'https')
    ctx.set('Strict-Transport-Security', `max-age=${HSTS_MAX_AGE_S}`)
  if (ctx.response.is('html')) {
    if (!opts.htmlPolicy) return
    // The control center is framed by nobody but itself; public pages also by the control center.
    const internal = ctx.state.internalBrand === true
    const ancestors = internal ? ["'self'"] : ["'self'", ...opts.frameAncestors()]
    ctx.set('Content-Security-Policy', htmlPolicy(nonce, ancestors))
    if (internal) ctx.set('X-Frame-Options', 'SAMEORIGIN')
  } else {
    ctx.set('Content-Security-Policy', NON_HTML_POLICY)
  }
}

/**
 * What setHeaders gives a public page (not the control center, no preview), as a list: the page fast
 * path sends exactly these. `html` false is a 304, which carries no Content-Type and so gets the
 * non-HTML policy, as Koa's answer does.
 */
export function pageSecurityHeaders(a: {
  https: boolean
  html: boolean
  nonce: string
  opts: SecurityHeaderOptions
}): [string, string][] {
  const out: [string, string][] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', REFERRER_POLICY],
  ]
  if (a.https) out.push(['Strict-Transport-Security', `max-age=${HSTS_MAX_AGE_S}`])
  if (!a.html) out.push(['Content-Security-Policy', NON_HTML_POLICY])
  else if (a.opts.htmlPolicy)
    out.push(['Content-Security-Policy', htmlPolicy(a.nonce, ["'self'", ...a.opts.frameAncestors()])])
  return out
}

/** Origins of the control center (internal brands), which may frame public pages to preview them. */
export function controlCenterOrigins(
  brands: Iterable<{ id: string; vertical: string; domains: readonly string[] }>,
): string[] {
  const out: string[] = []
  for (const b of brands) {
    if (b.vertical !== 'internal') continue
    for (const d of b.domains) out.push(`https://${d}`)
    out.push(`http://${b.id}.localhost:*`)
  }
  return out
}
