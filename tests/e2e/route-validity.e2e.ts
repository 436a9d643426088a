import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpGet } from './http'
import { type ServerProcess, startServerProcess } from './server-process'

// A server on a small fixture set whose page declares validity checks (spec point 2 and 8).
let server: ServerProcess
beforeAll(async () => {
  server = await startServerProcess({ DEFINITIONS_DIR: 'tests/fixtures/definitions-validity' })
})
afterAll(async () => {
  await server?.stop()
})

describe('route validity checks', () => {
  it('serves the page when every check passes', async () => {
    const r = await httpGet(server.port, '/offer/abc?token=t1', 'm10.localhost')
    expect(r.status).toBe(200)
    expect(r.body).toContain('Your offer')
  })

  it.each([
    ['/offer/abc', 'missing required query parameter'],
    ['/offer/abcd?token=t1', 'path parameter not matching its pattern'],
  ])('%s → 404 "Page Not Found: {path}" (%s)', async (path) => {
    const r = await httpGet(server.port, path, 'm10.localhost')
    expect(r.status).toBe(404)
    expect(r.body).toContain(`Page Not Found: ${path.split('?')[0]}`)
  })

  it('keeps the no-match message distinct', async () => {
    const r = await httpGet(server.port, '/offer', 'm10.localhost')
    expect(r.status).toBe(404)
    expect(r.body).toContain('Page not found: /offer')
  })
})
