import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_BODY_LIMIT_BYTES, EVENT_BATCH_MAX } from '../../engine/constants'
import { createApp } from '../app'
import { loadConfig } from '../config'
import { SnapshotStore } from '../content/snapshot-store'
import { eventsById } from '../store/event-store'
import { openStore, type Store } from '../store/open-store'
import { sampleEvent as pageBody } from '../store/sample-event'
import { DB_KINDS, dropPostgresSchema, uniquePostgresUrl } from '../store/test-databases'
import { getVisitor } from '../store/visitor-store'

describe.each(DB_KINDS)('tracking APIs on %s', (kind) => {
  let store: Store
  let server: Server
  let base: string
  let schema: string | undefined

  beforeAll(async () => {
    const pgUrl = kind === 'postgres' ? uniquePostgresUrl() : null
    schema = pgUrl?.schema
    store = await openStore({ databaseUrl: pgUrl?.url ?? null, dataDir: null })
    const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error' })
    const snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
    const app = createApp({ config: { ...config, trustedProxies: ['127.0.0.1'] }, snapshots, store })
    server = app.listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }, 60_000)

  afterAll(async () => {
    await new Promise((r) => (server ? server.close(r) : r(null)))
    await store?.close()
    if (schema) await dropPostgresSchema(schema)
  })

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(base + path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } })

  it('stores a pageview with server time and client IP, and a redelivery once', async () => {
    const id = randomUUID()
    const before = Date.now()
    const body = JSON.stringify(pageBody(id))
    const r1 = await post('/api/event/create', body, { 'x-forwarded-for': '203.0.113.9' })
    expect(r1.status).toBe(200)
    expect(await r1.json()).toEqual({ ok: true, accepted: 1 })
    const r2 = await post('/api/event/create', body)
    expect(r2.status).toBe(200)
    const rows = await eventsById(store.db, [id])
    expect(rows).toHaveLength(1)
    expect(rows[0].ip).toBe('203.0.113.9')
    expect(rows[0].type).toBe('page')
    expect(rows[0].name).toBe('home-m10')
    expect(Date.parse(rows[0].received_at)).toBeGreaterThanOrEqual(before - 1000)
    expect(rows[0].body).toEqual(JSON.parse(body))
  })

  it('takes a batch of track events', async () => {
    const ids = [randomUUID(), randomUUID()]
    const batch = ids.map((eventId) => ({
      type: 'track',
      event: 'formStepSubmitted',
      timestamp: new Date().toISOString(),
      sessionId: 'sess-0001',
      anonymousId: 'anon-0001',
      properties: { ...pageBody(eventId).properties, stepName: 'zip', stepNumber: 1 },
    }))
    const r = await post('/api/event/create', JSON.stringify(batch))
    expect(r.status).toBe(200)
    const rows = await eventsById(store.db, ids)
    expect(rows.map((x) => x.name)).toEqual(['formStepSubmitted', 'formStepSubmitted'])
  })

  const bad: [string, string, number, RegExp][] = [
    ['not JSON', '{"type": "page",', 400, /not valid JSON/],
    ['empty', '', 400, /empty/],
    ['a number', '42', 400, /body: must be object/],
    ['unknown type', JSON.stringify({ ...pageBody(), type: 'identify' }), 400, /type/],
    ['missing sessionId', JSON.stringify({ ...pageBody(), sessionId: undefined }), 400, /sessionId/],
    ['wrong type of name', JSON.stringify({ ...pageBody(), name: 7 }), 400, /\/name: must be string/],
    [
      'missing eventId',
      JSON.stringify({ ...pageBody(), properties: { ...pageBody().properties, eventId: undefined } }),
      400,
      /eventId/,
    ],
    ['bad timestamp', JSON.stringify({ ...pageBody(), timestamp: 'yesterday' }), 400, /\/timestamp/],
    [
      '__proto__ key',
      JSON.stringify(pageBody()).replace('"properties":{', '"properties":{"__proto__":{"admin":true},'),
      400,
      /__proto__/,
    ],
    [
      'constructor key in extras',
      JSON.stringify(pageBody(randomUUID(), { constructor: { prototype: 1 } })),
      400,
      /constructor/,
    ],
    ['NUL character', JSON.stringify(pageBody(randomUUID(), { note: 'a\u0000b' })), 400, /NUL/],
    ['lone surrogate', JSON.stringify(pageBody(randomUUID(), { note: '\ud800' })), 400, /surrogate/],
    ['empty batch', '[]', 400, /empty array/],
    [
      'batch too large',
      JSON.stringify(Array.from({ length: EVENT_BATCH_MAX + 1 }, () => pageBody())),
      400,
      /at most/,
    ],
    ['1 MB body', JSON.stringify(pageBody(randomUUID(), { pad: 'x'.repeat(1_000_000) })), 413, /limit/],
  ]
  for (const [what, body, status, message] of bad) {
    it(`refuses ${what} with ${status} and a message`, async () => {
      const r = await post('/api/event/create', body)
      expect(r.status).toBe(status)
      const json = (await r.json()) as { error: string }
      expect(json.error).toMatch(message)
    })
  }

  it('names the batch item at fault', async () => {
    const r = await post(
      '/api/event/create',
      JSON.stringify([pageBody(), { ...pageBody(), anonymousId: 'x' }]),
    )
    expect(r.status).toBe(400)
    expect(((await r.json()) as { error: string }).error).toMatch(/^\/1\/anonymousId/)
  })

  it('one unstorable event among 100 concurrent valid ones: all 100 stored and acknowledged, only its sender refused', async () => {
    const ids = Array.from({ length: 100 }, () => randomUUID())
    // Valid by the schema's date-time format, but no store can hold year 0.
    const offender = { ...pageBody(randomUUID()), timestamp: '0000-01-01T00:00:00Z' }
    const answers = await Promise.all([
      ...ids.slice(0, 50).map((id) => post('/api/event/create', JSON.stringify(pageBody(id)))),
      post('/api/event/create', JSON.stringify(offender)),
      ...ids.slice(50).map((id) => post('/api/event/create', JSON.stringify(pageBody(id)))),
    ])
    const bad = answers.splice(50, 1)[0]
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: string }).error).toMatch(/^\/timestamp: /)
    for (const a of answers) {
      expect(a.status).toBe(200)
      expect(await a.json()).toEqual({ ok: true, accepted: 1 })
    }
    expect((await eventsById(store.db, ids)).length).toBe(100)
    expect(await eventsById(store.db, [offender.properties.eventId])).toEqual([])
  })

  const unstorable: [string, string][] = [
    ['year 0', '0000-06-01T00:00:00Z'],
    ['an offset that moves it to year 0', '0001-01-01T00:00:00+14:00'],
    ['an offset that moves it past year 9999', '9999-12-31T23:59:59-14:00'],
  ]
  for (const [what, timestamp] of unstorable)
    it(`refuses a timestamp the store cannot hold (${what}) with a 400 naming it`, async () => {
      const r = await post('/api/event/create', JSON.stringify([pageBody(), { ...pageBody(), timestamp }]))
      expect(r.status).toBe(400)
      expect(((await r.json()) as { error: string }).error).toMatch(/^\/1\/timestamp: .* is outside/)
    })

  it('refuses a visitor updatedAt the bigint column cannot hold with a 400, not a 500', async () => {
    const r = await post(
      '/api/user/set',
      JSON.stringify({
        userId: 'user-0001',
        anonymousId: 'anon-0001',
        session: { id: 'sess-0001', paid: false, urlParams: {}, startedAt: 1 },
        urlParams: {},
        updatedAt: 1e20,
      }),
    )
    expect(r.status).toBe(400)
    expect(((await r.json()) as { error: string }).error).toMatch(/^\/updatedAt: must be <=/)
  })

  it('keeps serving after bad input', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200)
    expect((await post('/api/event/create', JSON.stringify(pageBody()))).status).toBe(200)
  })

  it('upserts the visitor record; an older change never overwrites a newer one', async () => {
    const record = {
      userId: `user-${randomUUID()}`,
      anonymousId: 'anon-0001',
      session: { id: 'sess-0002', paid: true, urlParams: { utm_campaign: 'c', gclid: 'x'.repeat(15) } },
      urlParams: { utm_campaign: 'c' },
      updatedAt: 2000,
    }
    expect((await post('/api/user/set', JSON.stringify(record))).status).toBe(200)
    const older = { ...record, session: { ...record.session, id: 'sess-old' }, updatedAt: 1000 }
    expect((await post('/api/user/set', JSON.stringify(older))).status).toBe(200)
    expect(await getVisitor(store.db, record.userId)).toEqual(record)
    const newer = { ...record, session: { ...record.session, id: 'sess-new' }, updatedAt: 3000 }
    await post('/api/user/set', JSON.stringify(newer))
    expect((await getVisitor(store.db, record.userId))?.session.id).toBe('sess-new')
  })

  it('refuses a visitor record with an untracked parameter or a wrong type', async () => {
    const r = await post(
      '/api/user/set',
      JSON.stringify({
        userId: 'user-0001',
        anonymousId: 'anon-0001',
        session: { id: 'sess-0001', paid: 'yes', urlParams: {} },
        urlParams: {},
        updatedAt: 1,
      }),
    )
    expect(r.status).toBe(400)
    expect(((await r.json()) as { error: string }).error).toMatch(/\/session\/paid: must be boolean/)
    const r2 = await post(
      '/api/user/set',
      JSON.stringify({
        userId: 'user-0001',
        anonymousId: 'anon-0001',
        session: { id: 'sess-0001', paid: false, urlParams: {} },
        urlParams: { email: 'a@b.c' },
        updatedAt: 1,
      }),
    )
    expect(r2.status).toBe(400)
    expect(((await r2.json()) as { error: string }).error).toMatch(/email/)
  })

  it('has a size limit on every body', () => {
    expect(API_BODY_LIMIT_BYTES).toBeLessThan(1_000_000)
  })
})
