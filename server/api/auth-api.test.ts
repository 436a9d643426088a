import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AUTH_SESSION_COOKIE,
  AUTH_SESSION_IDLE_MS,
  STAFF_SIGN_IN_FREE_FAILURES,
} from '../../engine/constants'
import { createApp } from '../app'
import { loadConfig } from '../config'
import { SnapshotStore } from '../content/snapshot-store'
import { checkCredentials, createStaffUser, lockStaffUser } from '../store/auth-store'
import { openStore, type Store } from '../store/open-store'
import { PasswordHasher } from '../store/password'
import { dropPostgresSchema, uniquePostgresUrl } from '../store/test-databases'

const execFileAsync = promisify(execFile)

/**
 * These tests are about the throttle, not the hash-time budget (tested in sign-in-throttle.test.ts):
 * on a loaded machine the budget would refuse some of their sign-ins.
 */
const roomyHasher = () => new PasswordHasher({ burstMs: 60_000 })

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
    server = createApp({ config, snapshots, store, passwordHasher: roomyHasher() }).listen(0, '127.0.0.1')
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

describe('staff sign-in resists guessing', () => {
  let store: Store
  let server: Server
  let base: string
  const pg = uniquePostgresUrl()
  const victim = `victim-${randomUUID()}@example.com`
  const other = `other-${randomUUID()}@example.com`

  beforeAll(async () => {
    store = await openStore({ databaseUrl: pg.url, dataDir: null })
    await createStaffUser(store.db, { email: victim, name: 'Vic', password: 'right password' })
    await createStaffUser(store.db, { email: other, name: 'Oth', password: 'other password' })
    const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error' })
    const snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
    server = createApp({ config, snapshots, store, passwordHasher: roomyHasher() }).listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }, 60_000)
  afterAll(async () => {
    await new Promise((r) => server?.close(r))
    await store?.close()
    await dropPostgresSchema(pg.schema)
  })
  const login = (email: string, password: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/_auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email, password }),
    })

  it('100 wrong passwords for one account are throttled with 429 + Retry-After; another account still signs in', async () => {
    const statuses: number[] = []
    let retryAfter = 0
    for (let i = 0; i < 100; i++) {
      const r = await login(victim, `guess-${i}`)
      statuses.push(r.status)
      if (r.status === 429) retryAfter = Number(r.headers.get('retry-after'))
      await r.arrayBuffer()
    }
    expect(statuses.slice(0, STAFF_SIGN_IN_FREE_FAILURES)).toEqual(
      Array(STAFF_SIGN_IN_FREE_FAILURES).fill(401),
    )
    // After the free failures every try waits (1 s, doubled per failure): on a slow machine the loop
    // can outlast a wait or two, and those tries are checked (401); all others are refused unhashed.
    const checked = statuses.filter((s) => s === 401).length
    expect(checked).toBeLessThanOrEqual(STAFF_SIGN_IN_FREE_FAILURES + 3)
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - checked)
    expect(retryAfter).toBeGreaterThan(0)
    // Even the right password waits: the throttle answers before any hash is computed.
    expect((await login(victim, 'right password')).status).toBe(429)
    const ok = await login(other, 'other password')
    expect(ok.status).toBe(200)
    const failures = await store.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE action = 'login-failed' AND target = $1",
      [victim],
    )
    expect(failures.rows[0].n).toBe(checked)
  })

  it('100 guesses at once for one account are hashed one at a time; the real user of another account signs in meanwhile', async () => {
    const target = `burst-${randomUUID()}@example.com`
    await createStaffUser(store.db, { email: target, name: 'Bur', password: 'burst password' })
    const guesses = Array.from({ length: 100 }, (_, i) => login(target, `guess-${i}`))
    // The real user, from another office, while the guesses are being answered.
    const real = await login(other, 'other password', { 'x-forwarded-for': '192.0.2.7' })
    expect(real.status).toBe(200)
    await real.arrayBuffer()
    const answers = await Promise.all(guesses)
    const statuses = answers.map((r) => r.status)
    for (const r of answers) await r.arrayBuffer()
    // One check at a time for the account: a guess is hashed only after the one before is answered,
    // so the free failures are all there is (fetch sends the 100 over a pool, not all at the same instant).
    const hashed = statuses.filter((s) => s === 401).length
    expect(hashed).toBeGreaterThanOrEqual(1)
    expect(hashed).toBeLessThanOrEqual(STAFF_SIGN_IN_FREE_FAILURES)
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - hashed)
    expect(answers.every((r) => r.status !== 429 || Number(r.headers.get('retry-after')) >= 1)).toBe(true)
  })

  it('an unknown account costs a hash like a known one (answers do not tell which accounts exist)', async () => {
    const hasher = new PasswordHasher()
    expect(await checkCredentials(store.db, `nobody-${randomUUID()}@example.com`, 'guess', hasher)).toBeNull()
    expect(await checkCredentials(store.db, other, 'wrong', hasher)).toBeNull()
    expect(hasher.load().started).toBe(2)
  })

  it('a locked account answers 429 until an admin unlocks it (npm run staff -- unlock)', async () => {
    await lockStaffUser(store.db, other)
    const locked = await login(other, 'other password')
    expect(locked.status).toBe(429)
    expect((await locked.json()).error).toMatch(/locked/)
    // Asynchronously: the server under test runs in this process and must keep serving meanwhile.
    const cli = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', 'server/cli/staff.ts', 'unlock', other],
      {
        cwd: join(import.meta.dirname, '..', '..'),
        env: { ...process.env, DATABASE_URL: pg.url, LOG_LEVEL: 'error' },
        encoding: 'utf8',
      },
    )
    expect(cli.stdout + cli.stderr).toContain(`unlocked ${other}`)
    expect((await login(other, 'other password')).status).toBe(200)
  }, 60_000)

  it('over HTTPS (via a trusted proxy) the cookie is __Host- prefixed and Secure; sign-in rotates the session', async () => {
    const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error', TRUSTED_PROXIES: '127.0.0.1' })
    const snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
    const tls = createApp({ config, snapshots, store, passwordHasher: roomyHasher() }).listen(0, '127.0.0.1')
    await new Promise((r) => tls.once('listening', r))
    try {
      const url = `http://127.0.0.1:${(tls.address() as AddressInfo).port}/api/_auth/session`
      const headers = { 'content-type': 'application/json', 'x-forwarded-proto': 'https' }
      const body = JSON.stringify({ email: other, password: 'other password' })
      const first = await fetch(url, { method: 'POST', headers, body })
      const setCookie = first.headers.get('set-cookie') ?? ''
      expect(setCookie).toMatch(new RegExp(`^__Host-${AUTH_SESSION_COOKIE}=`))
      expect(setCookie.toLowerCase()).toContain('secure')
      expect(setCookie.toLowerCase()).toContain('path=/')
      const cookie = setCookie.split(';')[0]
      const second = await fetch(url, { method: 'POST', headers: { ...headers, cookie }, body })
      expect(second.status).toBe(200)
      expect(second.headers.get('set-cookie')?.split(';')[0]).not.toBe(cookie)
      // The session held before signing in again has ended.
      const old = await fetch(url, { headers: { 'x-forwarded-proto': 'https', cookie } })
      expect(await old.json()).toEqual({})
    } finally {
      await new Promise((r) => tls.close(r))
    }
  })

  it('a session unused for AUTH_SESSION_IDLE_MS ends even before its absolute expiry', async () => {
    const r = await login(other, 'other password')
    const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0]
    await store.db.query(
      `UPDATE auth_sessions SET last_seen_at = now() - ($1::bigint * interval '1 millisecond') - interval '1 second'`,
      [AUTH_SESSION_IDLE_MS],
    )
    const s = await fetch(`${base}/api/_auth/session`, { headers: { cookie } })
    expect(await s.json()).toEqual({})
  })
})
