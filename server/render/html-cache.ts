/**
 * Server-side HTML cache (architecture decision 6, docs/decisions/0503). A page's HTML depends only
 * on (snapshot, brand, route + params, variant), so it is rendered once per key and served from
 * memory; each response gets its own CSP nonce and is compressed per response (docs/decisions/0701).
 * A new snapshot empties the cache.
 * Error pages (status ≥ 400) and the local brand index are never cached.
 */
import { HTML_CACHE_MAX_ENTRIES } from '../../engine/constants'
import type { Resolution } from '../../engine/render/resolution'

export interface CachedPage {
  status: number
  headers: [string, string][]
  /** The HTML with CSP_NONCE_PLACEHOLDER where each response puts its own nonce. */
  body: string
}

export class HtmlCache {
  readonly #entries = new Map<string, CachedPage>()
  hits = 0
  misses = 0

  constructor(readonly maxEntries = HTML_CACHE_MAX_ENTRIES) {}

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
    this.#entries.delete(key)
    this.#entries.set(key, page)
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value
      if (oldest === undefined) break
      this.#entries.delete(oldest)
    }
  }

  clear(): void {
    this.#entries.clear()
  }

  get size(): number {
    return this.#entries.size
  }
}
