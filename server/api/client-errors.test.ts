import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { CLIENT_ERRORS_PATH, CLIENT_ERRORS_PER_MINUTE, ERROR_REPORT_MAX_FRAMES } from '../../engine/constants'
import { createApp } from '../app'
import { loadConfig } from '../config'
import { SnapshotStore } from '../content/snapshot-store'
import { RateLimiter } from '../http/rate-limiter'

const root = join(import.meta.dirname, '..', '..')
let base = ''
let close: () => void

beforeAll(async () => {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn' })
  const snapshots = SnapshotStore.load(join(root, 'definitions'), root)
  const app = createApp({ config, snapshots })
  const server = app.listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = () => server.close()
})
afterAll(() => close?.())

function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(base + CLIENT_ERRORS_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

describe('POST /api/client-errors', () => {
  it('logs one structured line with the stack trimmed, and answers 204', async () => {
    const lines: string[] = []
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk))
      return true
    })
    const stack = [
      'TypeError: x is undefined',
      ...Array.from({ length: 90 }, (_, i) => `    at f${i} (a.js:1:1)`),
    ].join('\n')
    const res = await post({ message: 'TypeError: x is undefined', stack, kind: 'error', url: '/quiz/otc/1' })
    spy.mockRestore()
    expect(res.status).toBe(204)
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'client error')
    expect(line).toMatchObject({
      level: 'warn',
      kind: 'error',
      url: '/quiz/otc/1',
      message: 'TypeError: x is undefined',
    })
    expect(line.stack.split('\n')).toHaveLength(1 + ERROR_REPORT_MAX_FRAMES)
  })

  it('refuses bad reports with a 400 naming the field', async () => {
    const missing = await post({ stack: '', kind: 'error', url: '/' })
    expect(missing.status).toBe(400)
    expect((await missing.json()).error).toMatch(/^\/message: is required/)
    const kind = await post({ message: 'm', kind: 'nope', url: '/' })
    expect((await kind.json()).error).toMatch(/^\/kind: must be one of/)
    const notJson = await post('{oops')
    expect(notJson.status).toBe(400)
    expect((await notJson.json()).error).toMatch(/^body: is not valid JSON/)
  })

  it('refuses an oversized body with 413', async () => {
    const res = await post({ message: 'm', kind: 'error', url: '/', stack: 'x'.repeat(200_000) })
    expect(res.status).toBe(413)
  })
})

describe('RateLimiter', () => {
  it(`allows ${CLIENT_ERRORS_PER_MINUTE} a minute per client, then refuses until the window passes`, () => {
    let now = 0
    const l = new RateLimiter(CLIENT_ERRORS_PER_MINUTE, 60_000, () => now)
    for (let i = 0; i < CLIENT_ERRORS_PER_MINUTE; i++) expect(l.hit('a')).toBe(0)
    expect(l.hit('a')).toBeGreaterThan(0)
    expect(l.hit('b')).toBe(0)
    now = 60_000
    expect(l.hit('a')).toBe(0)
  })
})

describe('build files', () => {
  it('latest.json names the current build; its meta file carries the route matcher', async () => {
    const latest = await fetch(`${base}/builds/latest.json?t=${Date.now()}`)
    expect(latest.headers.get('cache-control')).toBe('no-store')
    const { id, timestamp } = (await latest.json()) as { id: string; timestamp: number }
    expect(id).toMatch(/^[0-9a-f]{12}$/)
    expect(typeof timestamp).toBe('number')
    const meta = await fetch(`${base}/builds/meta/${id}.json`)
    expect(meta.status).toBe(200)
    const body = (await meta.json()) as { id: string; matcher: { routes: string[] }; prerendered: string[] }
    expect(body.id).toBe(id)
    expect(Array.isArray(body.matcher.routes)).toBe(true)
    expect(body.prerendered).toEqual([])
    const stale = await fetch(`${base}/builds/meta/000000000000.json`)
    expect(stale.status).toBe(404)
  })
})
