import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH_SESSION_COOKIE } from '../../engine/constants'
import { createApp } from '../app'
import { loadConfig } from '../config'
import { SnapshotStore } from '../content/snapshot-store'
import { createStaffUser } from '../store/auth-store'
import { openStore, type Store } from '../store/open-store'
import { dropPostgresSchema, uniquePostgresUrl } from '../store/test-databases'

// The store behind these endpoints is tested on both databases in store.test.ts; this is the HTTP side.
describe('auth session API', () => {
  let store: Store
  let server: Server
  let base: string
  const pg = uniquePostgresUrl()
  const email = `sam-${randomUUID()}@example.com`

  beforeAll(async () => {
    store = await openStore({ databaseUrl: pg.url, dataDir: null })
    await createStaffUser(store.db, { email, name: 'Sam', password: 'correct horse' })
    const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error' })
    const snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
    server = createApp({ config, snapshots, store }).listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }, 60_000)
  afterAll(async () => {
    await new Promise((r) => (server ? server.close(r) : r(null)))
    await store?.close()
    await dropPostgresSchema(pg.schema)
  })

  const session = (cookie?: string, method = 'GET') =>
    fetch(`${base}/api/_auth/session`, { method, headers: cookie ? { cookie } : {} })
  const login = (body: unknown) =>
    fetch(`${base}/api/_auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it('answers {} without a session', async () => {
    const r = await session()
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({})
    expect(r.headers.get('cache-control')).toBe('no-store')
  })

  it('refuses a wrong password with 401 and a bad body with 400', async () => {
    const r = await login({ email, password: 'nope' })
    expect(r.status).toBe(401)
    expect(await r.json()).toMatchObject({ error: 'wrong e-mail or password' })
    const bad = await login({ email: 'not-an-email', password: 'x' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: string }).error).toMatch(/^\/email/)
  })

  it('logs in, answers {user}, and DELETE logs out', async () => {
    const r = await login({ email, password: 'correct horse' })
    expect(r.status).toBe(200)
    const setCookie = r.headers.get('set-cookie') ?? ''
    expect(setCookie).toMatch(new RegExp(`^${AUTH_SESSION_COOKIE}=`))
    expect(setCookie.toLowerCase()).toContain('httponly')
    const cookie = setCookie.split(';')[0]
    expect(await (await session(cookie)).json()).toMatchObject({ user: { email, name: 'Sam' } })
    const out = await session(cookie, 'DELETE')
    expect(out.status).toBe(200)
    expect(await out.json()).toEqual({})
    expect(await (await session(cookie)).json()).toEqual({})
    const log = await store.db.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE action IN ('login','logout')",
    )
    expect(log.rows.map((x) => x.action).sort()).toEqual(['login', 'logout'])
  })

  it('an unknown cookie is an empty session', async () => {
    expect(await (await session(`${AUTH_SESSION_COOKIE}=forged`)).json()).toEqual({})
  })
})
