import { once } from 'node:events'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { constants as zlibConstants } from 'node:zlib'
import Koa from 'koa'
import compress from 'koa-compress'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMPRESS_THRESHOLD_BYTES, pageEncodingFor } from './page-encoding'

// koa-compress as server/app.ts configures it, answering a body of a chosen size.
const app = new Koa()
app.use(
  compress({
    threshold: 1024,
    br: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
    gzip: { level: 6 },
  }),
)
app.use((ctx) => {
  ctx.type = 'html'
  ctx.body = 'x'.repeat(Number(ctx.query.size))
})
const server = app.listen(0, '127.0.0.1')
beforeAll(async () => {
  if (!server.listening) await once(server, 'listening')
})
afterAll(() => server.close())

function koaChoice(acceptEncoding: string | undefined, size: number): Promise<string> {
  const { port } = server.address() as AddressInfo
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }
    request({ host: '127.0.0.1', port, path: `/?size=${size}`, headers }, (res) => {
      res.resume()
      resolve(String(res.headers['content-encoding'] ?? 'identity'))
    })
      .on('error', reject)
      .end()
  })
}

describe('pageEncodingFor', () => {
  it('picks what koa-compress picks, for the headers browsers, tools and odd clients send', async () => {
    const headers = [
      undefined,
      '',
      '*',
      'gzip, deflate, br',
      'gzip, deflate, br, zstd',
      'br;q=0.5, gzip',
      'gzip;q=1, br;q=1',
      'deflate',
      'gzip',
      'br',
      'identity',
      'identity;q=0, gzip;q=0',
      'GZIP',
      'compress, x-gzip',
    ]
    for (const ae of headers)
      for (const size of [COMPRESS_THRESHOLD_BYTES - 1, 30_000]) {
        const koa = await koaChoice(ae, size)
        const ours = pageEncodingFor(ae, size)
        // null: not one a cached page keeps (deflate, or no acceptable one): Koa answers it its own way.
        if (ours === null) expect(['br', 'gzip'], `${ae} ${size}`).not.toContain(koa)
        else expect(ours, `${ae} ${size}`).toBe(koa)
      }
  })
})
