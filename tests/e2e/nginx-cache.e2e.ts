/**
 * The README's nginx configuration (docs/nginx/funnelworks.conf, decision 0511) in front of a
 * production server, both on loopback: public pages are served from nginx's cache, experiment pages
 * and staff previews never are, and a publish is visible through the cache within the configured
 * staleness. nginx must be
 * installed (npm test installs Debian's package when run as root): without it this test fails and says
 * how to install it.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAID_CLICK_ID_PARAMS } from '../../engine/constants'
import type { Experiment } from '../../schemas/generated/experiment'
import { httpGet } from './http'
import { inlinedNginxConf, type RunningNginx, readmeNginxBlocks, readmeNginxConf, startNginx } from './nginx'
import { PROJECT_ROOT, type ServerProcess, startServerProcess } from './server-process'
import { addStaff } from './staff-cli'
import { cc, prepareEdit, signIn } from './staff-publish'

/** s-maxage and stale-while-revalidate of this server: a publish shows within their sum. */
const MAX_AGE_S = 2
const STALE_S = 2
const COOKIE = 'fw_exp_grocery-headline'
const PAGE_FILE = 'definitions/pages/additional-benefits-grocery.json'
const PAGE = '/additional-benefits-grocery'
const PASSWORD = 'x-long-password'

let server: ServerProcess
let nginx: RunningNginx
let experiment: Experiment

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-nginx-defs-'))
  cpSync(join(PROJECT_ROOT, 'definitions'), dir, { recursive: true })
  const file = join(dir, 'experiments', 'grocery-headline.json')
  experiment = { ...JSON.parse(readFileSync(file, 'utf8')), status: 'running' }
  writeFileSync(file, JSON.stringify(experiment, null, 2))
  const dataDir = mkdtempSync(join(tmpdir(), 'fw-nginx-data-'))
  addStaff({ DATA_DIR: dataDir }, PASSWORD, [['pub@x.test', 'Pub', 'publisher']])
  server = await startServerProcess({
    DEFINITIONS_DIR: dir,
    DATA_DIR: dataDir,
    CONTENT_SOURCE: 'git',
    TRUSTED_PROXIES: '127.0.0.1',
    SHARED_MAX_AGE_S: String(MAX_AGE_S),
    SHARED_STALE_S: String(STALE_S),
  })
  nginx = await startNginx((p) => readmeNginxConf(p, server.port))
}, 180_000)

afterAll(async () => {
  await nginx?.stop()
  await server?.stop()
})

const viaNginx = (path: string, headers: Record<string, string> = {}) =>
  httpGet(nginx.port, path, 'm10.localhost', headers)
const headlineOf = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]

describe('nginx in front, configured as the README says', { timeout: 120_000 }, () => {
  it('runs the very configuration the README shows', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')
    for (const block of readmeNginxBlocks()) expect(readme).toContain(block)
  })

  it('serves public pages from its cache: hit ratio over repeated requests', async () => {
    const paths = ['/', '/privacy', PAGE]
    const N = 60
    let hits = 0
    for (let i = 0; i < N; i++) {
      const r = await viaNginx(paths[i % paths.length]!, { 'accept-encoding': 'br' })
      expect(r.status).toBe(200)
      if (r.headers['x-cache'] === 'HIT') hits++
    }
    // One miss per page (and, should s-maxage pass during the run, one refresh each time).
    const ratio = hits / N
    console.log(`nginx hit ratio: ${hits}/${N} = ${ratio.toFixed(2)}`)
    expect(ratio).toBeGreaterThanOrEqual(0.85)
    expect(nginx.errors()).not.toMatch(/\[(emerg|alert|crit)\]/)
  })

  it('keeps no page whose URL holds a paid click id: each is seen once (every id the server knows)', async () => {
    const conf = inlinedNginxConf()
    const noCache = /proxy_no_cache ([^;]+);/.exec(conf)?.[1].split(/\s+/)
    expect(noCache).toEqual(PAID_CLICK_ID_PARAMS.map((p) => `$arg_${p.toLowerCase()}`))
    for (const p of PAID_CLICK_ID_PARAMS) {
      // nginx's $arg_ matches a parameter name in any case.
      const path = `/privacy?${p.toUpperCase()}=click-${p}-0123456789abcdef`
      for (let i = 0; i < 2; i++) {
        const r = await viaNginx(path)
        expect(r.status).toBe(200)
        expect(r.headers['x-cache'], path).toBe('MISS')
      }
    }
    // Other query strings stay cacheable.
    await viaNginx('/privacy?utm_source=newsletter')
    expect((await viaNginx('/privacy?utm_source=newsletter')).headers['x-cache']).toBe('HIT')
  })

  it('behind a trusted proxy over https: the fast path sends HSTS exactly as the Koa chain does', async () => {
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' }
    for (let i = 0; i < 3; i++) await httpGet(server.port, '/privacy', 'm10.localhost', https)
    const fast = await httpGet(server.port, '/privacy', 'm10.localhost', https)
    const koa = await httpGet(server.port, '/privacy?branch=none', 'm10.localhost', https)
    const { date: _d1, ...fastHeaders } = fast.headers
    const { date: _d2, ...koaHeaders } = koa.headers
    expect(fastHeaders['strict-transport-security']).toBe('max-age=31536000')
    expect(fastHeaders).toEqual(koaHeaders)
    expect(fast.raw.equals(koa.raw)).toBe(true)
    const plain = await httpGet(server.port, '/privacy', 'm10.localhost', { 'x-forwarded-proto': 'http' })
    expect(plain.headers['strict-transport-security']).toBeUndefined()
  })

  it('never shares an experiment page: each visitor gets their own variant and cookie', async () => {
    for (let i = 0; i < 6; i++) {
      const r = await viaNginx('/grocery')
      expect(r.headers['x-cache']).not.toBe('HIT')
      expect(String(r.headers['set-cookie'])).toContain(`${COOKIE}=`)
    }
    for (const v of experiment.variants)
      for (let i = 0; i < 3; i++) {
        const r = await viaNginx('/grocery', { cookie: `${COOKIE}=${v.id}`, 'accept-encoding': 'br' })
        expect(r.headers['x-cache']).not.toBe('HIT')
        const html = r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.raw).toString() : r.body
        expect(headlineOf(html)).toBe(v.overrides?.headline ?? 'Help with groceries from your Medicare plan')
      }
  })

  it('shows a publish within s-maxage + stale-while-revalidate; the server itself at once', async () => {
    const before = await viaNginx(PAGE)
    expect(headlineOf(before.body)).toBe('Check for a grocery benefit near you')
    expect(['HIT', 'MISS', 'STALE', 'UPDATING', 'REVALIDATED']).toContain(before.headers['x-cache'])
    const cookie = await signIn(server.port, { email: 'pub@x.test', password: PASSWORD })
    const HEADLINE = 'A grocery benefit, published just now'
    const { branch, publish } = await prepareEdit(server.port, cookie, {
      file: PAGE_FILE,
      pointer: '/headline',
      value: HEADLINE,
    })
    // A staff preview of the branch, on the brand's host: private, never cached by nginx nor by the server.
    const grant = await cc(
      server.port,
      'POST',
      '/api/cc/previews',
      { branch, brand: 'm10', path: PAGE },
      cookie,
    )
    expect(grant.status, JSON.stringify(grant.json)).toBe(200)
    const previewUrl = new URL((grant.json.urls as Record<string, string>).m10!)
    const previewPath = previewUrl.pathname + previewUrl.search
    const fastHits = async () =>
      JSON.parse((await httpGet(server.port, '/healthz', 'localhost')).body).pageCache.fastHits as number
    const hitsBefore = await fastHits()
    for (let i = 0; i < 3; i++) {
      const direct = await httpGet(server.port, previewPath, 'm10.localhost')
      expect(direct.headers['cache-control']).toBe('private, no-store')
      expect(direct.headers['x-html-cache']).toBeUndefined()
      expect(headlineOf(direct.body)).toBe(HEADLINE)
      const proxied = await viaNginx(previewPath)
      expect(proxied.headers['x-cache']).not.toBe('HIT')
      expect(headlineOf(proxied.body)).toBe(HEADLINE)
    }
    expect(await fastHits()).toBe(hitsBefore)
    // Fresh in both caches right before the publish: nginx's (age 0) and the server's fast path.
    for (let i = 0; i < 2; i++) {
      await httpGet(server.port, PAGE, 'm10.localhost')
      await viaNginx(PAGE)
    }
    expect(await fastHits()).toBeGreaterThan(hitsBefore)
    await publish()
    const at = Date.now()
    // The server answers the new page at once: the snapshot changed, so its own cache and fast path forgot.
    let direct = ''
    for (let i = 0; i < 40 && direct !== HEADLINE; i++) {
      direct = headlineOf((await httpGet(server.port, PAGE, 'm10.localhost')).body) ?? ''
      if (direct !== HEADLINE) await new Promise((r) => setTimeout(r, 50))
    }
    expect(direct).toBe(HEADLINE)
    // Through nginx: the old page while its copy is fresh, the new one within s-maxage +
    // stale-while-revalidate (nginx refreshes it in the background).
    const early = await viaNginx(PAGE)
    console.log(
      `right after the publish nginx answered ${early.headers['x-cache']}: "${headlineOf(early.body)}"`,
    )
    let seen = ''
    while (seen !== HEADLINE && Date.now() - at < (MAX_AGE_S + STALE_S + 5) * 1000) {
      seen = headlineOf((await viaNginx(PAGE)).body) ?? ''
      if (seen !== HEADLINE) await new Promise((r) => setTimeout(r, 200))
    }
    const took = (Date.now() - at) / 1000
    console.log(`publish visible through nginx after ${took.toFixed(1)} s (allowed ${MAX_AGE_S + STALE_S} s)`)
    expect(seen).toBe(HEADLINE)
    // A little room for the refresh itself on a busy machine.
    expect(took).toBeLessThanOrEqual(MAX_AGE_S + STALE_S + 1)
  })
})
