/**
 * Server-side HTML cache (architecture decision 6, docs/decisions/0503). A page's HTML depends only
 * on (snapshot, brand, route + params, variant), so it is rendered once per key and served from
 * memory as the same bytes every time: its CSP nonce is the entry's own (nonceFor), and brotli and
 * gzip variants are made once per entry, off the main thread (docs/decisions/0530).
 * A new snapshot empties the cache. It holds at most HTML_CACHE_MAX_ENTRIES pages and
 * HTML_CACHE_MAX_BYTES of them, least recently used out first.
 * Error pages (status ≥ 400) and the local brand index are never cached.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib'
import { HTML_CACHE_MAX_BYTES, HTML_CACHE_MAX_ENTRIES } from '../../engine/constants'
import type { Resolution } from '../../engine/render/resolution'

/** Brotli quality of a cached page: made once per entry on libuv's pool, so the best one. */
const CACHED_BROTLI_QUALITY = 11
const CACHED_GZIP_LEVEL = 9
const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

export interface CachedPage {
  status: number
  headers: [string, string][]
  /** The HTML as sent, with the entry's CSP nonce in it. */
  html: Buffer
  /** The CSP nonce written in `html` (nonceFor its key). */
  nonce: string
  /** The entity tag of these bytes (etagFor). */
  etag: string
  /** Precompressed variants; absent until made (compress), then every hit sends them. */
  br?: Buffer
  gzip?: Buffer
}

export class HtmlCache {
  readonly #entries = new Map<string, CachedPage>()
  /**
   * Keys the nonces: nobody without it can tell an entry's nonce before seeing it. Derived from a
   * secret the fleet shares (nonceKeyFrom) so every instance sends the same bytes and ETag for a page;
   * a process of its own draws a random one.
   */
  readonly #secret: Buffer
  #bytes = 0
  hits = 0
  misses = 0

  constructor(
    readonly maxEntries = HTML_CACHE_MAX_ENTRIES,
    readonly maxBytes = HTML_CACHE_MAX_BYTES,
    nonceKey: Buffer = randomBytes(32),
  ) {
    this.#secret = nonceKey
  }

  /**
   * The nonce key of every instance sharing `secret` (the preview secret, which a fleet already shares:
   * docs/decisions/0601): an HMAC under a label of its own, so neither key reveals the other.
   */
  static nonceKeyFrom(secret: string): Buffer {
    return createHmac('sha256', secret).update('funnelworks csp nonce key').digest()
  }

  /** What an entry costs in memory, about: its bytes, and its key and headers as UTF-16. */
  static costOf(key: string, page: CachedPage): number {
    return (
      page.html.length +
      (page.br?.length ?? 0) +
      (page.gzip?.length ?? 0) +
      2 * (key.length + page.headers.reduce((n, [a, b]) => n + a.length + b.length, 0))
    )
  }

  /** The key for a resolution, or null when it must not be cached. */
  static keyOf(r: Resolution): string | null {
    if (r.statusCode >= 400 || r.view === 'error' || r.view === 'brand-index') return null
    // A page carrying one visitor's answers or phone number is theirs alone (docs/decisions/0230).
    if (r.funnelPost || r.visitorPhone) return null
    const variant = r.experiment
      ? `${r.experiment.id}=${r.experiment.variant}${r.experiment.preview ? ':preview' : ''}`
      : ''
    const params = Object.entries(r.params)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join('&')
    return [r.snapshotId, r.brand?.id ?? '', r.view, r.page?.key ?? '', r.pathname, params, variant].join(
      '\u0000',
    )
  }

  /**
   * The CSP nonce of an entry: 16 bytes keyed by the nonce key, so the same page in the same snapshot
   * keeps its nonce (and its bytes and ETag) when it is evicted and rendered again, on every instance of
   * a fleet, and a publish changes it (docs/decisions/0530).
   */
  nonceFor(key: string): string {
    return createHmac('sha256', this.#secret).update(key).digest().subarray(0, 16).toString('base64url')
  }

  /**
   * A strong entity tag for an entry: a hash of its bytes, so instances sending the same page agree,
   * and two builds of a rolling deploy that render the same snapshot differently never do (the key alone
   * would give both the same tag). The nonce, and with it the key's snapshot, is part of the bytes
   * (docs/decisions/0511, 0530).
   */
  static etagFor(html: Buffer): string {
    return `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`
  }

  /** Makes the entry's brotli and gzip variants off the main thread; hits send them once made. */
  async compress(key: string, page: CachedPage): Promise<void> {
    const [br, gz] = await Promise.all([
      brotliAsync(page.html, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: CACHED_BROTLI_QUALITY,
          [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: page.html.length,
        },
      }),
      gzipAsync(page.html, { level: CACHED_GZIP_LEVEL }),
    ])
    // Still the same entry (not evicted, not replaced): count its new bytes.
    if (this.#entries.get(key) !== page) return
    this.#bytes -= HtmlCache.costOf(key, page)
    page.br = br
    page.gzip = gz
    this.#bytes += HtmlCache.costOf(key, page)
    this.#trim()
  }

  get(key: string): CachedPage | undefined {
    const hit = this.#entries.get(key)
    if (hit) {
      // Least recently used goes first: re-insert on every hit.
      this.#entries.delete(key)
      this.#entries.set(key, hit)
      this.hits++
    } else this.misses++
    return hit
  }

  /** A hit on the page fast path: the entry, now the most recent, or undefined (not counted a miss). */
  touch(key: string): CachedPage | undefined {
    const page = this.#entries.get(key)
    if (!page) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, page)
    this.hits++
    return page
  }

  set(key: string, page: CachedPage): void {
    const cost = HtmlCache.costOf(key, page)
    // A page bigger than the whole budget is served, not kept.
    if (cost > this.maxBytes) return
    this.#delete(key)
    this.#entries.set(key, page)
    this.#bytes += cost
    this.#trim()
  }

  #trim(): void {
    while (this.#entries.size > this.maxEntries || this.#bytes > this.maxBytes) {
      const oldest = this.#entries.keys().next().value
      if (oldest === undefined) break
      this.#delete(oldest)
    }
  }

  #delete(key: string): void {
    const old = this.#entries.get(key)
    if (!old) return
    this.#entries.delete(key)
    this.#bytes -= HtmlCache.costOf(key, old)
  }

  clear(): void {
    this.#entries.clear()
    this.#bytes = 0
  }

  /** The entries' cost in bytes (costOf). */
  get bytes(): number {
    return this.#bytes
  }

  get size(): number {
    return this.#entries.size
  }
}

/** If-None-Match names this tag (also weak, also in a list), or is `*`. */
export function ifNoneMatchHas(asked: string, etag: string): boolean {
  return asked.trim() === '*' || asked.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)
}
