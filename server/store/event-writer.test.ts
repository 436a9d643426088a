import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from './event-rows'
import { eventsById } from './event-store'
import { openStore, type Store } from './open-store'
import { sampleEvent } from './sample-event'

describe('EventWriter group commit', () => {
  let store: Store
  beforeAll(async () => {
    store = await openStore({ databaseUrl: null, dataDir: null })
  }, 60_000)
  afterAll(() => store?.close())

  it('a row the database refuses fails only the write that carried it, not the others in its batch', async () => {
    const now = new Date()
    const good = Array.from({ length: 20 }, () => randomUUID())
    // Skips the API's checks on purpose: the writer itself must isolate what the database refuses.
    const bad = { ...eventRow(sampleEvent(randomUUID()), now, null), client_ts: '0000-01-01T00:00:00.000Z' }
    const results = await Promise.allSettled([
      ...good.slice(0, 10).map((id) => store.events.write([eventRow(sampleEvent(id), now, null)])),
      store.events.write([bad]),
      ...good.slice(10).map((id) => store.events.write([eventRow(sampleEvent(id), now, null)])),
    ])
    const rejected = results.splice(10, 1)[0]
    expect(rejected.status).toBe('rejected')
    expect((rejected as PromiseRejectedResult).reason.code).toMatch(/^22/)
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true)
    expect((await eventsById(store.db, good)).length).toBe(20)
  })
})
