import { readdirSync, readFileSync, statSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, inject, it } from 'vitest'
import { httpGet } from './http'
import { PROJECT_ROOT, startServerProcess } from './server-process'

const port = inject('port')

describe('HTTP behaviour of the production server', () => {
  it('answers /healthz with JSON', async () => {
    const r = await httpGet(port, '/healthz', 'm10.localhost')
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toMatch(/application\/json/)
    expect(JSON.parse(r.body)).toMatchObject({ status: 'ok', mode: 'production' })
  })

  it('serves each brand home by Host, case-insensitive, port and trailing dot ignored', async () => {
    for (const host of [
      'm10.localhost',
      'M10.LOCALHOST:3000',
      'www.medicare10.com',
      'offers.medicare10.com.',
      'medicare10.com:443',
    ]) {
      const r = await httpGet(port, '/', host)
      expect(r.status, host).toBe(200)
      expect(r.body).toMatch(/<title>[^<]* - Medicare10<\/title>/)
    }
  })

  it('answers an unknown host with the 404 page', async () => {
    const r = await httpGet(port, '/', 'unknown.example.org')
    expect(r.status).toBe(404)
    expect(r.body).toContain('Page not found: /')
  })

  it('answers an unknown path with 404 and the spec message', async () => {
    const r = await httpGet(port, '/definitely/not/here', 'tqg.localhost')
    expect(r.status).toBe(404)
    expect(r.body).toContain('Page not found: /definitely/not/here')
    expect(r.body).toContain('Page Not Found')
  })

  it('never shows the brand index on a real domain, and only at /', async () => {
    expect((await httpGet(port, '/', 'localhost')).status).toBe(200)
    expect((await httpGet(port, '/other', 'localhost')).status).toBe(404)
    expect((await httpGet(port, '/', 'example.com')).status).toBe(404)
  })

  it('compresses HTML responses', async () => {
    const r = await httpGet(port, '/', 'bh.localhost', { 'accept-encoding': 'gzip' })
    expect(r.headers['content-encoding']).toBe('gzip')
  })

  it('gives hashed assets immutable cache headers', async () => {
    const dir = join(PROJECT_ROOT, 'dist', 'client', 'assets', 'entries')
    const file = readdirSync(dir).find((f) => f.endsWith('.js'))!
    const r = await httpGet(port, `/assets/entries/${file}`, 'm10.localhost')
    expect(r.status).toBe(200)
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(r.headers['content-type']).toMatch(/javascript/)
  })

  it('sends assets precompressed in the encoding the client accepts, byte for byte the file', async () => {
    const dir = join(PROJECT_ROOT, 'dist', 'client', 'assets', 'chunks')
    // The largest chunk (react-dom): the one where compressing per request would hurt most.
    const file = readdirSync(dir)
      .filter((f) => f.endsWith('.js'))
      .sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0]!
    const bytes = readFileSync(join(dir, file))
    const path = `/assets/chunks/${file}`
    const br = await httpGet(port, path, 'm10.localhost', { 'accept-encoding': 'gzip, deflate, br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toMatch(/Accept-Encoding/i)
    expect(Number(br.headers['content-length'])).toBe(br.raw.length)
    expect(brotliDecompressSync(br.raw).equals(bytes)).toBe(true)
    // Brotli at quality 11, not the per-request default: smaller than gzip -9.
    const gz = await httpGet(port, path, 'm10.localhost', { 'accept-encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.raw).equals(bytes)).toBe(true)
    expect(br.raw.length).toBeLessThan(gz.raw.length)
    const plain = await httpGet(port, path, 'm10.localhost', { 'accept-encoding': 'identity' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.raw.equals(bytes)).toBe(true)
    const head = await httpGet(port, path, 'm10.localhost', { 'accept-encoding': 'br' }, 'HEAD')
    expect(head.headers['content-length']).toBe(String(br.raw.length))
    expect(head.raw.length).toBe(0)
    const again = await httpGet(port, path, 'm10.localhost', {
      'accept-encoding': 'br',
      'if-modified-since': String(br.headers['last-modified']),
    })
    expect(again.status).toBe(304)
  })

  it('redirects a trailing slash to the canonical path, keeping the query', async () => {
    const r = await httpGet(port, '/privacy/?utm_source=x', 'm10.localhost')
    expect(r.status).toBe(301)
    expect(r.headers.location).toBe('/privacy?utm_source=x')
  })

  it('refuses path traversal in static files', async () => {
    const r = await httpGet(port, '/../package.json', 'm10.localhost')
    expect(r.status).toBe(404)
  })

  it('marks a non-indexable page noindex', async () => {
    const r = await httpGet(port, '/', 'ccc.localhost')
    expect(r.body).toContain('<meta name="robots" content="noindex, nofollow">')
    const indexable = await httpGet(port, '/', 'm10.localhost')
    expect(indexable.body).not.toContain('name="robots"')
  })

  it('serves robots.txt and a sitemap of indexable pages per brand', async () => {
    const robots = await httpGet(port, '/robots.txt', 'm10.localhost')
    expect(robots.body).toContain('Sitemap: http://m10.localhost/sitemap.xml')
    const sitemap = await httpGet(port, '/sitemap.xml', 'm10.localhost')
    expect(sitemap.headers['content-type']).toMatch(/xml/)
    expect(sitemap.body).toContain('<loc>http://m10.localhost/privacy</loc>')
    const cc = await httpGet(port, '/robots.txt', 'ccc.localhost')
    expect(cc.body).toBe('User-agent: *\nDisallow: /\n')
  })

  it('answers unknown API paths with a JSON 404', async () => {
    const r = await httpGet(port, '/api/nope', 'm10.localhost')
    expect(r.status).toBe(404)
    expect(JSON.parse(r.body).error).toMatch(/No API at GET \/api\/nope/)
  })
})

describe('process lifecycle', () => {
  it('stops with a message naming a wrong configuration variable', async () => {
    await expect(startServerProcess({ PORT: 'eighty' })).rejects.toThrow(/PORT: must be a whole number/)
    await expect(startServerProcess({ BRAND_INDEX: 'maybe' })).rejects.toThrow(/BRAND_INDEX: must be on\/off/)
  })

  it('finishes in-flight requests on SIGTERM, then exits 0', async () => {
    const server = await startServerProcess()
    // A request that is surely in flight: headers half sent when SIGTERM arrives, finished after.
    const socket = connect(server.port, '127.0.0.1')
    await new Promise<void>((r) => socket.once('connect', () => r()))
    let response = ''
    socket.on('data', (d) => {
      response += d
    })
    const closed = new Promise<void>((r) => socket.once('close', () => r()))
    socket.write('GET /healthz HTTP/1.1\r\nHost: m10.localhost\r\n')
    await new Promise((r) => setTimeout(r, 300))
    const exited = server.stop('SIGTERM')
    await new Promise((r) => setTimeout(r, 300))
    socket.write('Connection: close\r\n\r\n')
    await closed
    expect(response).toMatch(/^HTTP\/1.1 200 OK/)
    expect(response).toContain('"status":"ok"')
    expect(await exited).toBe(0)
  })
})
