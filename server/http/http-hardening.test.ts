import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_ERRORS_PATH, CLIENT_ERRORS_PER_MINUTE } from '../../engine/constants'
import { startTestApp } from '../api/phone-test-server'

/** One raw HTTP/1.1 exchange, so request targets no HTTP client would send can be tried. */
function raw(
  port: number,
  head: string,
  body = '',
): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.end(`${head}\r\nConnection: close\r\n\r\n${body}`))
    let out = ''
    s.on('data', (d) => {
      out += d
    })
    s.on('end', () => {
      const [headers, ...rest] = out.split('\r\n\r\n')
      resolve({
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(headers)?.[1] ?? 0),
        headers,
        body: rest.join('\r\n\r\n'),
      })
    })
    s.on('error', reject)
  })
}
const header = (headers: string, name: string) =>
  new RegExp(`^${name}: (.*)$`, 'im').exec(headers)?.[1]?.trim() ?? null

const report = JSON.stringify({ message: 'm', kind: 'error', url: '/' })

describe('redirects never leave the site', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>
  beforeAll(async () => {
    app = await startTestApp({})
  })
  afterAll(() => app.close())
  const port = () => Number(new URL(app.url).port)

  for (const path of [
    '//evil.example/',
    '///evil.example/',
    '/\\evil.example/',
    '/\\/evil.example/',
    '//evil.example/%2F..//',
    '/%2F%2Fevil.example/',
    '/%5Cevil.example/',
    '//evil.example\\@m10.localhost/',
  ])
    it(`GET ${path} stays on the host`, async () => {
      const r = await raw(port(), `GET ${path} HTTP/1.1\r\nHost: m10.localhost`)
      expect(r.status).toBe(301)
      const location = header(r.headers, 'location')!
      expect(location).toMatch(/^\/(?![/\\])/)
      // Browsers strip tabs and newlines and read backslashes as slashes before resolving.
      const asBrowser = location.replace(/[\t\n\r]/g, '').replace(/\\/g, '/')
      expect(new URL(asBrowser, 'http://m10.localhost').host).toBe('m10.localhost')
    })
})

describe('state-changing endpoints check Origin and Content-Type', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>
  beforeAll(async () => {
    app = await startTestApp({})
  })
  afterAll(() => app.close())
  const send = (headers: Record<string, string>, body = report) =>
    fetch(app.url + CLIENT_ERRORS_PATH, { method: 'POST', headers, body })

  it('takes a same-origin JSON post', async () => {
    const host = new URL(app.url).host
    expect((await send({ 'content-type': 'application/json', origin: `http://${host}` })).status).toBe(204)
  })
  it('refuses another Origin, an opaque one, and a cross-site fetch with 403 naming the header', async () => {
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example' },
      { origin: 'null' },
      // Same host, another scheme or port: another origin.
      { origin: `https://${new URL(app.url).host}` },
      { origin: `http://${new URL(app.url).hostname}:1` },
      { 'sec-fetch-site': 'cross-site' },
    ]) {
      const r = await send({ 'content-type': 'application/json', ...headers })
      expect(r.status).toBe(403)
      expect((await r.json()).error).toMatch(/^(Origin|Sec-Fetch-Site): /)
    }
  })
  it('refuses what an HTML form can send (not JSON) with 415', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const r = await send({ 'content-type': type })
      expect(r.status).toBe(415)
      expect((await r.json()).error).toMatch(/^Content-Type: /)
    }
  })
  it('a DELETE from another site is refused too', async () => {
    const r = await fetch(`${app.url}/api/_auth/session`, {
      method: 'DELETE',
      headers: { origin: 'https://evil.example' },
    })
    expect(r.status).toBe(403)
  })
})

/**
 * Sends `head` and then a body of `size` bytes in 64 KB pieces a few ms apart (a client on a real
 * network is still sending when the answer comes), then reads the answer.
 */
function sendBig(
  port: number,
  head: string,
  size: number,
): Promise<{ status: number; error: string | null }> {
  return new Promise((resolve) => {
    const piece = Buffer.alloc(64 * 1024, 'x')
    const s = connect(port, '127.0.0.1', async () => {
      s.write(`${head}\r\n\r\n`)
      const chunked = /transfer-encoding: chunked/i.test(head)
      for (let sent = 0; sent < size && !s.destroyed; sent += piece.length) {
        s.write(
          chunked
            ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
            : piece,
        )
        await new Promise((r) => setTimeout(r, 3))
      }
      if (chunked && !s.destroyed) s.write('0\r\n\r\n')
    })
    let out = ''
    s.on('data', (d) => {
      out += d
    })
    s.on('error', (e) => resolve({ status: 0, error: (e as NodeJS.ErrnoException).code ?? String(e) }))
    s.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(out)?.[1] ?? 0), error: null }))
  })
}

describe('a body over its limit always gets its answer, never a reset connection', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>
  beforeAll(async () => {
    app = await startTestApp({})
  })
  afterAll(() => app.close())
  const port = () => Number(new URL(app.url).port)
  const size = 2 * 1024 * 1024

  it('a 2 MB body sent whole with its Content-Length: 413', async () => {
    for (let i = 0; i < 3; i++)
      expect(
        await sendBig(
          port(),
          `POST ${CLIENT_ERRORS_PATH} HTTP/1.1\r\nHost: m10.localhost\r\nContent-Type: application/json\r\nContent-Length: ${size}`,
          size,
        ),
      ).toEqual({ status: 413, error: null })
  })
  it('a 2 MB body sent chunked, without a length: 413', async () => {
    for (let i = 0; i < 3; i++)
      expect(
        await sendBig(
          port(),
          `POST ${CLIENT_ERRORS_PATH} HTTP/1.1\r\nHost: m10.localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked`,
          size,
        ),
      ).toEqual({ status: 413, error: null })
  })
  it('a 2 MB body from another origin: 403', async () => {
    const host = new URL(app.url).host
    expect(
      await sendBig(
        port(),
        `POST ${CLIENT_ERRORS_PATH} HTTP/1.1\r\nHost: ${host}\r\nOrigin: https://evil.example\r\nContent-Type: application/json\r\nContent-Length: ${size}`,
        size,
      ),
    ).toEqual({ status: 403, error: null })
  })
})

describe('forwarded headers count only from TRUSTED_PROXIES', () => {
  it('the rate limit keys on the client the trusted proxy saw, not on the leftmost X-Forwarded-For', async () => {
    const app = await startTestApp({ trustedProxies: ['127.0.0.1'] })
    try {
      const statuses: number[] = []
      for (let i = 0; i <= CLIENT_ERRORS_PER_MINUTE; i++) {
        const r = await fetch(app.url + CLIENT_ERRORS_PATH, {
          method: 'POST',
          // The visitor writes a new address each time; the proxy appends the one it saw.
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.${i}.1, 203.0.113.5` },
          body: report,
        })
        statuses.push(r.status)
      }
      expect(statuses.at(-1)).toBe(429)
    } finally {
      await app.close()
    }
  })

  it('X-Forwarded-Host and -Proto from anyone else change nothing (robots.txt, HSTS)', async () => {
    const app = await startTestApp({ trustedProxies: [] })
    try {
      const port = Number(new URL(app.url).port)
      const r = await raw(
        port,
        'GET /robots.txt HTTP/1.1\r\nHost: m10.localhost\r\nX-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https',
      )
      expect(r.body).toContain('Sitemap: http://m10.localhost/sitemap.xml')
      expect(header(r.headers, 'strict-transport-security')).toBeNull()
    } finally {
      await app.close()
    }
  })

  it('from a trusted proxy they set the origin of absolute URLs and turn HSTS on', async () => {
    const app = await startTestApp({ trustedProxies: ['127.0.0.1'] })
    try {
      const port = Number(new URL(app.url).port)
      const r = await raw(
        port,
        'GET /robots.txt HTTP/1.1\r\nHost: internal:3000\r\nX-Forwarded-Host: www.medicare10.com\r\nX-Forwarded-Proto: https',
      )
      expect(r.body).toContain('Sitemap: https://www.medicare10.com/sitemap.xml')
      expect(header(r.headers, 'strict-transport-security')).toMatch(/^max-age=\d+/)
    } finally {
      await app.close()
    }
  })
})

describe('security headers on answers that are not pages', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>
  beforeAll(async () => {
    app = await startTestApp({})
  })
  afterAll(() => app.close())

  for (const path of ['/api/ip', '/api/nothing-here', '/healthz', '/builds/latest.json'])
    it(`${path}: nosniff, a referrer policy and a CSP that allows nothing`, async () => {
      const r = await fetch(app.url + path, { headers: { accept: 'application/json' } })
      expect(r.headers.get('x-content-type-options')).toBe('nosniff')
      expect(r.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      expect(r.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'")
      await r.arrayBuffer()
    })
})

describe('connections', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>
  beforeAll(async () => {
    app = await startTestApp({})
  })
  afterAll(() => app.close())

  /** Sends `head` and `body` on a keep-alive connection without ending it; resolves on the server's close. */
  function keepAlive(head: string, body: Buffer | string) {
    return new Promise<{ response: string; closedByServer: boolean }>((resolve, reject) => {
      const s = connect(Number(new URL(app.url).port), '127.0.0.1', () => {
        s.write(`${head}\r\n\r\n`)
        s.write(body)
      })
      let response = ''
      s.on('data', (d) => {
        response += d
      })
      // The server must close it: the test would time out otherwise (Node keeps it for 5 s+ by default).
      s.on('close', () => resolve({ response, closedByServer: true }))
      s.on('error', () => resolve({ response, closedByServer: true }))
      setTimeout(() => {
        s.destroy()
        reject(new Error(`connection still open; got:\n${response}`))
      }, 4_000)
    })
  }

  it('a chunked body over the limit gets 413 with Connection: close, and the connection ends', async () => {
    const chunk = 'x'.repeat(100_000)
    const r = await keepAlive(
      `POST ${CLIENT_ERRORS_PATH} HTTP/1.1\r\nHost: m10.localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked`,
      `${chunk.length.toString(16)}\r\n${chunk}\r\n`,
    )
    expect(r.response).toMatch(/^HTTP\/1\.1 413/)
    expect(r.response).toMatch(/^connection: close/im)
    expect(r.response).toMatch(/"error":"body: over the limit/)
  })

  it('a declared length over the limit is refused before the body arrives, and the connection ends', async () => {
    const r = await keepAlive(
      `POST ${CLIENT_ERRORS_PATH} HTTP/1.1\r\nHost: m10.localhost\r\nContent-Type: application/json\r\nContent-Length: 10000000`,
      '{',
    )
    expect(r.response).toMatch(/^HTTP\/1\.1 413/)
    expect(r.response).toMatch(/^connection: close/im)
  })
})
