/**
 * Cached pages answered before Koa (issue 19, docs/decisions/0530). A plain node:http listener looks
 * the request up among the answers the Koa chain has already given from the HTML cache and, on a
 * match, writes the precomputed headers and the precompressed bytes itself; anything else goes on to
 * Koa unchanged.
 *
 * It only ever repeats an answer Koa gave: the Koa chain tells it (learn) what a page request that was
 * served from the cache looked like — brand, path, variant, headers — and it answers the same request
 * the same way, for the same snapshot. It steps aside for everything that could make Koa answer
 * differently: another method than GET, shutdown (Connection: close), a trailing slash, a page payload,
 * preview or variant-preview parameters, a query on a page whose checks read the query, an experiment
 * page without the visitor's variant cookie (Koa picks and sets one), the control center, a cache
 * entry not yet compressed in the encoding asked for, a browser holding funnel answers (fw_akey), or one evicted since (the next Koa answer renders
 * and teaches it again).
 */
import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http'
import { parse as parseQuery } from 'node:querystring'
import {
  ANSWER_KEY_COOKIE,
  EXPERIMENT_PREVIEW_PARAM,
  HTML_CACHE_MAX_ENTRIES,
  PAGE_PAYLOAD_SUFFIX,
  PREVIEW_BRANCH_PARAM,
  PREVIEW_GRANT_PARAM,
} from '../../engine/constants'
import type { Snapshot } from '../../engine/snapshot/types'
import type { RequestMetrics } from '../metrics/request-metrics'
import { type CachedPage, type HtmlCache, ifNoneMatchHas } from '../render/html-cache'
import { brandIdForHost } from '../render/resolve-request'
import { type PageEncoding, pageEncodingFor } from './page-encoding'
import { normaliseIp, requestClient } from './request-client'
import { pageSecurityHeaders, type SecurityHeaderOptions } from './security-headers'

export interface PageFastPathOptions {
  cache: HtmlCache
  snapshots: { readonly current: Snapshot }
  trustedProxies: readonly string[]
  security: SecurityHeaderOptions
  /** True once the server is shutting down (Koa then says Connection: close). */
  closing?: () => boolean
}

/** One page answer Koa gave from the cache, as the fast path repeats it. */
export interface LearnedAnswer {
  /** The id of the snapshot the answer was resolved in; a publish makes it stale. */
  snapshotId: string
  brandId: string
  /** The decoded path, as the Koa chain resolved it. */
  pathname: string
  /** A funnel step or another page (what the request metrics count it as). */
  kind: 'page' | 'funnel'
  /** The request had a query string. */
  hadQuery: boolean
  /** The page's route checks read the query string: only a query-less request may be repeated. */
  queryChecked: boolean
  /** The page's experiment: its cookie, and the variant the visitor's cookie named. */
  experiment: { cookie: string; variant: string } | null
  key: string
  page: CachedPage
  /** The headers the Koa chain set inside its security and compression layers (server/app.ts). */
  headers: [string, string][]
}

interface Answer {
  key: string
  inner: [string, string][]
  /**
   * The entry the header sets below were made for. Weak: an entry the cache evicts is not kept alive
   * here (the same key renders the same bytes again: its nonce and ETag are functions of the key).
   */
  page: WeakRef<CachedPage>
  /** Full header sets by protocol and encoding, made on first use. */
  heads: Map<string, OutgoingHttpHeaders>
}

interface Route {
  snapshotId: string
  kind: 'page' | 'funnel'
  queryChecked: boolean
  /** The experiment's cookie (name and how to find it), or null. */
  cookie: { name: string; pattern: RegExp } | null
  /** By variant ('' without experiment). */
  answers: Map<string, Answer>
}

/** Headers the fast path sets per answer itself, never copied from Koa's. */
const PER_RESPONSE = new Set([
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'set-cookie',
  'date',
])
/** The parameters that make Koa answer a path differently (preview grants, variant previews). */
const STEERING_PARAMS = [PREVIEW_BRANCH_PARAM, PREVIEW_GRANT_PARAM, EXPERIMENT_PREVIEW_PARAM]
/** The index may hold at most this many routes (as many as the cache's entries, twice over). */
const MAX_ROUTES = 2 * HTML_CACHE_MAX_ENTRIES

export class PageFastPath {
  readonly #routes = new Map<string, Route>()
  readonly #trusted: ReadonlySet<string>
  /** Requests answered here (the rest went on to Koa). */
  hits = 0

  constructor(readonly opts: PageFastPathOptions) {
    this.#trusted = new Set(opts.trustedProxies.map(normaliseIp))
  }

  /**
   * node:http's listener: a cached page here, anything else to Koa (`next`, its callback()). With
   * `requests`, each answer given here is counted (Koa counts its own): two clock reads and an array
   * increment, no allocation.
   */
  listener(next: RequestListener, requests?: RequestMetrics): RequestListener {
    if (!requests)
      return (req, res) => {
        if (!this.answer(req, res)) next(req, res)
      }
    return (req, res) => {
      const started = performance.now()
      const kind = this.answer(req, res)
      if (kind) requests.record(kind, res.statusCode, started)
      else next(req, res)
    }
  }

  /** Remembers an answer Koa gave from the cache, to give it here next time. */
  learn(a: LearnedAnswer): void {
    // A path whose checks read the query was checked with this request's query: only repeat it bare.
    if (a.queryChecked && a.hadQuery) return
    const id = `${a.brandId}\u0000${a.pathname}`
    let route = this.#routes.get(id)
    const cookie = a.experiment?.cookie ?? null
    if (!route || route.snapshotId !== a.snapshotId || (route.cookie?.name ?? null) !== cookie) {
      if (this.#routes.size >= MAX_ROUTES) this.#routes.clear()
      route = {
        snapshotId: a.snapshotId,
        kind: a.kind,
        queryChecked: a.queryChecked,
        cookie: cookie ? { name: cookie, pattern: cookiePattern(cookie) } : null,
        answers: new Map(),
      }
      this.#routes.set(id, route)
    }
    const inner = a.headers.filter(([name]) => !PER_RESPONSE.has(name.toLowerCase()))
    route.answers.set(a.experiment?.variant ?? '', {
      key: a.key,
      inner,
      page: new WeakRef(a.page),
      heads: new Map(),
    })
  }

  /** Forgets every answer (a new snapshot). */
  clear(): void {
    this.#routes.clear()
  }

  get size(): number {
    return this.#routes.size
  }

  /**
   * Answers the request when it is a cache hit Koa would answer the same way, and tells the kind of
   * the route answered; null otherwise.
   */
  answer(req: IncomingMessage, res: ServerResponse): Route['kind'] | null {
    if (req.method !== 'GET' || this.#routes.size === 0 || this.opts.closing?.()) return null
    // A browser holding funnel answers may get a page of its own (its answers, its phone number):
    // Koa decides (docs/decisions/0230).
    if (headerOf(req, 'cookie')?.includes(`${ANSWER_KEY_COOKIE}=`)) return null
    const url = req.url ?? ''
    if (url.charCodeAt(0) !== 47 /* / */) return null
    const q = url.indexOf('?')
    const rawPath = q < 0 ? url : url.slice(0, q)
    const query = q < 0 ? '' : url.slice(q + 1)
    // Koa redirects these, or sends the page's payload.
    if ((rawPath.length > 1 && rawPath.endsWith('/')) || rawPath.endsWith(PAGE_PAYLOAD_SUFFIX)) return null
    let pathname = rawPath
    if (rawPath.includes('%'))
      try {
        pathname = decodeURI(rawPath)
      } catch {}
    const snapshot = this.opts.snapshots.current
    const client = requestClient(
      req.socket.remoteAddress,
      (name) => headerOf(req, name),
      'encrypted' in req.socket && !!req.socket.encrypted,
      this.#trusted,
    )
    const brandId = brandIdForHost(snapshot, client.host)
    if (!brandId) return null
    const route = this.#routes.get(`${brandId}\u0000${pathname}`)
    if (!route || route.snapshotId !== snapshot.id) return null
    if (query) {
      if (route.queryChecked) return null
      const parsed = parseQuery(query)
      const search = new URLSearchParams(query)
      if (STEERING_PARAMS.some((p) => p in parsed || search.has(p))) return null
    }
    const answer = route.answers.get(route.cookie ? (cookieOf(req, route.cookie.pattern) ?? '\u0000') : '')
    const page = answer && this.opts.cache.touch(answer.key)
    if (!answer || !page) return null
    if (answer.page.deref() !== page) {
      answer.page = new WeakRef(page)
      answer.heads.clear()
    }
    const https = client.protocol === 'https'
    const asked = req.headers['if-none-match']
    if (asked && ifNoneMatchHas(asked, page.etag)) {
      res.writeHead(304, this.#head(answer, page, https, null))
      res.end()
      this.hits++
      return route.kind
    }
    const encoding = pageEncodingFor(req.headers['accept-encoding'], page.html.length)
    const body = encoding === 'identity' ? page.html : encoding ? page[encoding] : undefined
    if (!encoding || !body) return null
    res.writeHead(page.status, this.#head(answer, page, https, encoding))
    res.end(body)
    this.hits++
    return route.kind
  }

  /** The headers of a 200 in an encoding, or of a 304 (encoding null), as Koa sends them. */
  #head(
    answer: Answer,
    page: CachedPage,
    https: boolean,
    encoding: PageEncoding | null,
  ): OutgoingHttpHeaders {
    const id = `${https ? 's' : ''}${encoding ?? '304'}`
    let head = answer.heads.get(id)
    if (head) return head
    head = {}
    for (const [name, value] of answer.inner) {
      // A 304 has no body: Koa drops its Content-Type.
      if (!encoding && name.toLowerCase() === 'content-type') continue
      head[name] = name.toLowerCase() === 'x-html-cache' ? 'hit' : value
    }
    if (encoding && encoding !== 'identity') head['Content-Encoding'] = encoding
    for (const [name, value] of pageSecurityHeaders({
      https,
      html: encoding !== null,
      nonce: page.nonce,
      opts: this.opts.security,
    }))
      head[name] = value
    if (encoding) head['Content-Length'] = (encoding === 'identity' ? page.html : page[encoding])!.length
    answer.heads.set(id, head)
    return head
  }
}

/** A request header as Koa's ctx.get reads it. */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name]
  return (Array.isArray(v) ? v.join(', ') : v) || undefined
}

/** How Koa's ctx.cookies.get (the `cookies` package) finds a cookie in the Cookie header. */
function cookiePattern(name: string): RegExp {
  return new RegExp(`(?:^|;) *${name.replace(/[\^$\\.*+?()[\]{}|]/g, '\\$&')}=([^;]*)`)
}

/** A cookie's value as Koa's ctx.cookies.get reads it (unsigned). */
function cookieOf(req: IncomingMessage, pattern: RegExp): string | undefined {
  const header = req.headers.cookie
  if (!header) return undefined
  const m = pattern.exec(header)
  if (!m) return undefined
  const value = m[1]!
  return value[0] === '"' ? value.slice(1, -1) : value
}
