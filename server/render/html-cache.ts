/**
 * Server-side HTML cache (architecture decision 6, docs/decisions/0503). A page's HTML depends only
 * on (snapshot, brand, route + params, variant), so it is rendered once per key and served from
 * memory; each response gets its own CSP nonce and is compressed per response (docs/decisions/0701).
 * A new snapshot empties the cache. It holds at most HTML_CACHE_MAX_ENTRIES pages and
 * HTML_CACHE_MAX_BYTES of them, least recently used out first.
 * Error pages (status ≥ 400) and the local brand index are never cached.
 */
import { createHash } from 'node:crypto'
import { HTML_CACHE_MAX_BYTES, HTML_CACHE_MAX_ENTRIES } from '../../engine/constants'
import type { Resolution } from '../../engine/render/resolution'

export interface CachedPage {
  status: number
  headers: [string, string][]
  /** The HTML with CSP_NONCE_PLACEHOLDER where each response puts its own nonce. */
  body: string
  /** The entity tag of this page in this snapshot (etagOf). */
  etag: string
}

export class HtmlCache {
  readonly #entries = new Map<string, CachedPage>()
  #bytes = 0
  hits = 0
  misses = 0

  constructor(
    readonly maxEntries = HTML_CACHE_MAX_ENTRIES,
    readonly maxBytes = HTML_CACHE_MAX_BYTES,
  ) {}

  /** What an entry costs in memory, about: its body and headers as UTF-16, and its key. */
  static costOf(key: string, page: CachedPage): number {
    return (
      2 * (key.length + page.body.length + page.headers.reduce((n, [a, b]) => n + a.length + b.length, 0))
    )
  }

  /** The key for a resolution, or null when it must not be cached. */
  static keyOf(r: Resolution): string | null {
    if (r.statusCode >= 400 || r.view === 'error' || r.view === 'brand-index') return null
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
   * A strong entity tag for a key: the key holds the snapshot, brand, route and variant, so the tag
   * changes with every publish that could change the page. The nonce differs per response but is not
   * content (docs/decisions/0511).
   */
  static etagOf(key: string): string {
    return `"${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`
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

  set(key: string, page: CachedPage): void {
    const cost = HtmlCache.costOf(key, page)
    // A page bigger than the whole budget is served, not kept.
    if (cost > this.maxBytes) return
    this.#delete(key)
    this.#entries.set(key, page)
    this.#bytes += cost
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
