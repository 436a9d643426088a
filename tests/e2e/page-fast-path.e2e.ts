/**
 * Cached pages answered before the Koa chain (issue 19, docs/decisions/0530): the same bytes and the
 * same headers as the Koa chain gives, 304s, encodings, and everything the fast path must leave to Koa.
 * The Koa chain's own answer to the same page is had with a query parameter that sends the request
 * past the fast path and changes nothing else (`?branch=` without a preview grant serves the live page).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPERIMENT_HTML_CACHE_CONTROL } from '../../engine/constants'
import type { Experiment } from '../../schemas/generated/experiment'
import { type HttpResult, httpGet } from './http'
import { PROJECT_ROOT, type ServerProcess, startServerProcess } from './server-process'

// A server of its own (its hit counter is this file's alone), with the grocery experiment running.
const COOKIE = 'fw_exp_grocery-headline'
let server: ServerProcess
let port: number
let experiment: Experiment

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-fast-path-'))
  cpSync(join(PROJECT_ROOT, 'definitions'), dir, { recursive: true })
  const file = join(dir, 'experiments', 'grocery-headline.json')
  experiment = { ...JSON.parse(readFileSync(file, 'utf8')), status: 'running' }
  writeFileSync(file, JSON.stringify(experiment, null, 2))
  server = await startServerProcess({ DEFINITIONS_DIR: dir })
  port = server.port
})
afterAll(async () => {
  await server?.stop()
})
const HOST = 'm10.localhost'
const PAGE = '/privacy'
const KOA = `${PAGE}?branch=no-such-branch`

/** What /healthz tells about the page cache. */
async function fastHits(): Promise<number> {
  const health = JSON.parse((await httpGet(port, '/healthz', HOST)).body)
  return health.pageCache.fastHits as number
}

/** Asks until the entry's precompressed forms exist (made off the main thread after the first render). */
async function warm(path: string, host = HOST, headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = await httpGet(port, path, host, { 'accept-encoding': 'br', ...headers })
    if (r.headers['content-encoding'] === 'br' && r.headers['content-length']) return
    await new Promise((done) => setTimeout(done, 50))
  }
  throw new Error(`${path} never got its brotli form`)
}

/** Headers that differ per response whoever answers. */
const comparable = (r: HttpResult) => {
  const { date, connection, 'keep-alive': _k, ...rest } = r.headers
  return rest
}

/** A request answered on the fast path: its hit counter moves by one. */
async function viaFastPath(path: string, headers: Record<string, string> = {}, host = HOST) {
  const before = await fastHits()
  const r = await httpGet(port, path, host, headers)
  expect(await fastHits(), `${path} ${JSON.stringify(headers)} on the fast path`).toBe(before + 1)
  return r
}
async function viaKoa(path: string, headers: Record<string, string> = {}, host = HOST) {
  const before = await fastHits()
  const r = await httpGet(port, path, host, headers)
  expect(await fastHits(), `${path} ${JSON.stringify(headers)} left to Koa`).toBe(before)
  return r
}

describe('the page fast path', () => {
  it('answers a cache hit with the bytes and headers the Koa chain gives, in br, gzip and identity', async () => {
    await warm(PAGE)
    for (const ae of ['gzip, deflate, br', 'gzip', 'identity', '']) {
      const headers: Record<string, string> = ae ? { 'accept-encoding': ae } : {}
      const fast = await viaFastPath(PAGE, headers)
      const koa = await viaKoa(KOA, headers)
      expect(fast.status).toBe(200)
      expect(comparable(fast), ae).toEqual(comparable(koa))
      expect(fast.raw.equals(koa.raw), ae).toBe(true)
      expect(fast.headers['x-html-cache']).toBe('hit')
      expect(Number(fast.headers['content-length'])).toBe(fast.raw.length)
      const html =
        fast.headers['content-encoding'] === 'br'
          ? brotliDecompressSync(fast.raw)
          : fast.headers['content-encoding'] === 'gzip'
            ? gunzipSync(fast.raw)
            : fast.raw
      expect(fast.headers['content-encoding'] ?? 'identity').toBe(
        ae.includes('br') ? 'br' : ae.includes('gzip') ? 'gzip' : 'identity',
      )
      expect(html.toString()).toContain('</html>')
      // The CSP names the nonce the HTML carries: the entry's, the same on every hit.
      const nonce = /'nonce-([^']+)'/.exec(String(fast.headers['content-security-policy']))![1]
      for (const tag of html.toString().match(/<script\b[^>]*>/g) ?? [])
        if (!tag.includes('application/json')) expect(tag).toContain(`nonce="${nonce}"`)
    }
    // X-Forwarded-Proto from a proxy that is not trusted changes nothing (no HSTS), as in Koa.
    const fast = await viaFastPath(PAGE, { 'x-forwarded-proto': 'https' })
    expect(fast.headers['strict-transport-security']).toBeUndefined()
  })

  it('answers If-None-Match with the 304 the Koa chain gives', async () => {
    await warm(PAGE)
    const etag = String((await httpGet(port, PAGE, HOST)).headers.etag)
    for (const asked of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const fast = await viaFastPath(PAGE, { 'if-none-match': asked })
      const koa = await viaKoa(KOA, { 'if-none-match': asked })
      expect(fast.status).toBe(304)
      expect(fast.raw.length).toBe(0)
      expect(comparable(fast)).toEqual(comparable(koa))
    }
    const changed = await viaFastPath(PAGE, { 'if-none-match': '"other"' })
    expect(changed.status).toBe(200)
  })

  it('leaves to Koa what it cannot answer the same way', async () => {
    await warm(PAGE)
    // Encodings a cached page does not keep, HEAD, a trailing slash, the page payload, previews.
    expect((await viaKoa(PAGE, { 'accept-encoding': 'deflate' })).headers['content-encoding']).toBe('deflate')
    expect((await viaKoa(`${PAGE}/`)).status).toBe(301)
    const preview = await viaKoa(`${PAGE}?branch=live&fw_preview=forged`)
    expect(preview.status).toBe(200)
    expect((await viaKoa(`${PAGE}?fw_variant=question`)).status).toBe(200)
    expect((await viaKoa(`${PAGE}/_payload.json`)).headers['content-type']).toMatch(/json/)
    const before = await fastHits()
    const head = await httpGet(port, PAGE, HOST, {}, 'HEAD')
    expect(head.status).toBe(200)
    expect(await fastHits()).toBe(before)
    // A query of click ids does not change the page: answered fast, the same bytes.
    const plain = await httpGet(port, PAGE, HOST, { 'accept-encoding': 'br' })
    const clicked = await viaFastPath(`${PAGE}?gclid=abc&utm_source=x`, { 'accept-encoding': 'br' })
    expect(clicked.raw.equals(plain.raw)).toBe(true)
    // Another brand's host is another entry; an unknown host or path is Koa's 404.
    expect((await viaKoa(PAGE, {}, 'nobody.example.org')).status).toBe(404)
    expect((await viaKoa('/no/such/page')).status).toBe(404)
  })

  it('an experiment page: a returning visitor is answered fast in their variant, a new one by Koa with a cookie', async () => {
    const headline = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]
    const fresh = await viaKoa('/grocery')
    expect(String(fresh.headers['set-cookie'])).toContain(`${COOKIE}=`)
    for (const v of experiment.variants) {
      const cookie = { cookie: `other=1; ${COOKIE}=${v.id}` }
      await warm('/grocery', HOST, cookie)
      const fast = await viaFastPath('/grocery', { ...cookie, 'accept-encoding': 'br' })
      const koa = await viaKoa('/grocery?branch=no-such-branch', { ...cookie, 'accept-encoding': 'br' })
      expect(comparable(fast)).toEqual(comparable(koa))
      expect(fast.raw.equals(koa.raw)).toBe(true)
      expect(fast.headers['set-cookie']).toBeUndefined()
      expect(fast.headers['cache-control']).toBe(EXPERIMENT_HTML_CACHE_CONTROL)
      expect(String(fast.headers.vary)).toMatch(/Cookie/)
      expect(headline(brotliDecompressSync(fast.raw).toString())).toBe(
        v.overrides?.headline ?? 'Help with groceries from your Medicare plan',
      )
    }
    // No cookie, or one naming no variant: Koa picks a variant and sets its cookie.
    for (const headers of [{}, { cookie: `${COOKIE}=removed-variant` }] as Record<string, string>[]) {
      const r = await viaKoa('/grocery', headers)
      expect(String(r.headers['set-cookie'])).toContain(`${COOKIE}=`)
    }
  })

  it('never answers the control center (sign-in decides what it shows)', async () => {
    await httpGet(port, '/', 'ccc.localhost')
    await httpGet(port, '/', 'ccc.localhost')
    await viaKoa('/', {}, 'ccc.localhost')
  })
})
