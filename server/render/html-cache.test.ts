import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { Resolution } from '../../engine/render/resolution'
import { type CachedPage, HtmlCache, ifNoneMatchHas } from './html-cache'

function resolution(over: Partial<Resolution> = {}): Resolution {
  return {
    view: 'content',
    pageId: 'content',
    statusCode: 200,
    snapshotId: 's1',
    site: { name: 'x', faviconSrc: '/f.svg', gtmId: 'GTM-1' },
    brand: { id: 'm10' } as Resolution['brand'],
    page: { key: 'home-m10' } as Resolution['page'],
    params: {},
    pathname: '/',
    search: '',
    thirdParty: { tagManagerUrl: 'https://tm', adScriptUrl: null },
    ...over,
  }
}

describe('HtmlCache', () => {
  it('keys by snapshot, brand, page, path and params — never by the query string', () => {
    const k = HtmlCache.keyOf(resolution())
    expect(HtmlCache.keyOf(resolution({ search: '?gclid=abc' }))).toBe(k)
    expect(HtmlCache.keyOf(resolution({ snapshotId: 's2' }))).not.toBe(k)
    expect(HtmlCache.keyOf(resolution({ brand: { id: 'bh' } as Resolution['brand'] }))).not.toBe(k)
    expect(HtmlCache.keyOf(resolution({ params: { step: '2' } }))).not.toBe(k)
  })

  it('keys each experiment variant apart (docs/decisions/0105)', () => {
    const a = HtmlCache.keyOf(resolution({ experiment: { id: 'x', variant: 'control' } }))
    const b = HtmlCache.keyOf(resolution({ experiment: { id: 'x', variant: 'question' } }))
    expect(a).not.toBe(b)
    expect(a).not.toBe(HtmlCache.keyOf(resolution()))
    expect(HtmlCache.keyOf(resolution({ experiment: { id: 'x', variant: 'control' } }))).toBe(a)
  })

  it("never caches a page carrying one visitor's answers or phone number (docs/decisions/0230)", () => {
    expect(HtmlCache.keyOf(resolution({ funnelPost: { stepIndex: 0, values: {}, errors: {} } }))).toBeNull()
    expect(
      HtmlCache.keyOf(resolution({ visitorPhone: { shown: null, source: 'none', leased: null } })),
    ).toBeNull()
  })

  it('does not cache errors or the brand index', () => {
    expect(HtmlCache.keyOf(resolution({ statusCode: 404, view: 'error' }))).toBeNull()
    expect(HtmlCache.keyOf(resolution({ statusCode: 500 }))).toBeNull()
    expect(HtmlCache.keyOf(resolution({ view: 'brand-index' }))).toBeNull()
  })

  it('evicts the least recently used entry beyond its size', () => {
    const c = new HtmlCache(2)
    const page = { status: 200, headers: [], html: Buffer.from('x'), nonce: 'n', etag: '"x"' }
    c.set('a', page)
    c.set('b', page)
    c.get('a')
    c.set('c', page)
    expect(c.get('b')).toBeUndefined()
    expect(c.get('a')).toBeDefined()
    expect(c.size).toBe(2)
  })

  it('evicts the least recently used entries beyond its byte budget, and never keeps a page bigger than it', () => {
    const page = (n: number) => ({
      status: 200,
      headers: [] as [string, string][],
      html: Buffer.from('x'.repeat(n)),
      nonce: 'n',
      etag: '"x"',
    })
    const cost = HtmlCache.costOf('a', page(1000))
    const c = new HtmlCache(100, cost * 2)
    c.set('a', page(1000))
    c.set('b', page(1000))
    expect(c.bytes).toBe(cost * 2)
    c.get('a')
    c.set('c', page(1000))
    expect(c.get('b')).toBeUndefined()
    expect(c.get('a')).toBeDefined()
    expect(c.bytes).toBe(cost * 2)
    // Replacing an entry counts it once.
    c.set('a', page(1000))
    expect(c.bytes).toBe(cost * 2)
    c.set('huge', page(5000))
    expect(c.get('huge')).toBeUndefined()
    expect(c.size).toBe(2)
    c.clear()
    expect(c.bytes).toBe(0)
  })
})

describe('HtmlCache entries as bytes (docs/decisions/0530)', () => {
  const entry = (html: string) => {
    const c = new HtmlCache()
    const nonce = c.nonceFor('k')
    const page: CachedPage = {
      status: 200,
      headers: [],
      html: Buffer.from(html),
      nonce,
      etag: HtmlCache.etagFor(Buffer.from(html)),
    }
    return { c, page }
  }

  it('gives each key its own nonce, the same again for the same key, and none another process could guess', () => {
    const c = new HtmlCache()
    expect(c.nonceFor('a')).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(c.nonceFor('a')).toBe(c.nonceFor('a'))
    expect(c.nonceFor('b')).not.toBe(c.nonceFor('a'))
    expect(new HtmlCache().nonceFor('a')).not.toBe(c.nonceFor('a'))
  })

  it('gives every instance sharing the preview secret the same nonces, and none to another secret', () => {
    const fleet = 'x'.repeat(32)
    const one = new HtmlCache(undefined, undefined, HtmlCache.nonceKeyFrom(fleet))
    const two = new HtmlCache(undefined, undefined, HtmlCache.nonceKeyFrom(fleet))
    const other = new HtmlCache(undefined, undefined, HtmlCache.nonceKeyFrom('y'.repeat(32)))
    expect(two.nonceFor('a')).toBe(one.nonceFor('a'))
    expect(two.nonceFor('b')).not.toBe(one.nonceFor('a'))
    expect(other.nonceFor('a')).not.toBe(one.nonceFor('a'))
    // The nonce key is not the secret itself: a nonce never reveals what signs preview links.
    expect(HtmlCache.nonceKeyFrom(fleet).equals(Buffer.from(fleet))).toBe(false)
  })

  it('tags an entry by its bytes: the same bytes the same tag, other bytes another', () => {
    const tag = HtmlCache.etagFor(Buffer.from('<p>a</p>'))
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
    expect(HtmlCache.etagFor(Buffer.from('<p>a</p>'))).toBe(tag)
    expect(HtmlCache.etagFor(Buffer.from('<p>b</p>'))).not.toBe(tag)
  })

  it('keeps brotli and gzip forms of the same bytes and counts them', async () => {
    const { c, page } = entry('<p>hello</p>'.repeat(500))
    c.set('k', page)
    const before = c.bytes
    await c.compress('k', page)
    expect(brotliDecompressSync(page.br!).equals(page.html)).toBe(true)
    expect(gunzipSync(page.gzip!).equals(page.html)).toBe(true)
    expect(c.bytes).toBe(before + page.br!.length + page.gzip!.length)
    // An entry evicted meanwhile is not counted again.
    const other = entry('x'.repeat(2000)).page
    await c.compress('gone', other)
    expect(c.bytes).toBe(before + page.br!.length + page.gzip!.length)
  })

  it('touch gives the entry to the fast path and makes it the most recent', () => {
    const { page } = entry('x')
    const c = new HtmlCache(2)
    c.set('k', page)
    c.set('l', page)
    expect(c.touch('k')).toBe(page)
    c.set('m', page)
    expect(c.touch('l')).toBeUndefined()
    expect(c.touch('k')).toBe(page)
    expect(c.misses).toBe(0)
  })

  it('If-None-Match: the tag, weak, in a list, or *', () => {
    expect(ifNoneMatchHas('"a"', '"a"')).toBe(true)
    expect(ifNoneMatchHas('W/"a"', '"a"')).toBe(true)
    expect(ifNoneMatchHas('"b", "a"', '"a"')).toBe(true)
    expect(ifNoneMatchHas('*', '"a"')).toBe(true)
    expect(ifNoneMatchHas('"b"', '"a"')).toBe(false)
  })
})
