/**
 * Server-side HTML cache (architecture decision 6, docs/decisions/0503). A page's HTML depends only
 * on (snapshot, brand, route + params, variant), so it is rendered once per key and served from
 * memory, with its gzip and brotli forms compressed once too. A new snapshot empties the cache.
 * Error pages (status ≥ 400) and the local brand index are never cached.
 */
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib'
import { HTML_CACHE_MAX_ENTRIES } from '../../engine/constants'
import type { Resolution } from '../../engine/render/resolution'

export interface CachedPage {
  status: number
  headers: [string, string][]
  body: string
  gzip?: Buffer
  br?: Buffer
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

/** The body in the best encoding the client accepts, compressed once per cached page. */
export function encodedBody(
  page: CachedPage,
  acceptEncoding: string | undefined,
): { body: string | Buffer; encoding?: 'br' | 'gzip' } {
  const accepted = acceptedEncodings(acceptEncoding)
  const accepts = (name: string) => accepted.has(name)
  if (accepts('br')) {
    page.br ??= brotliCompressSync(page.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } })
    return { body: page.br, encoding: 'br' }
  }
  if (accepts('gzip')) {
    page.gzip ??= gzipSync(page.body, { level: 9 })
    return { body: page.gzip, encoding: 'gzip' }
  }
  return { body: page.body }
}

function acceptedEncodings(header: string | undefined): Set<string> {
  const out = new Set<string>()
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    if (name && (q === undefined || Number(q.slice(2)) > 0)) out.add(name)
  }
  return out
}
