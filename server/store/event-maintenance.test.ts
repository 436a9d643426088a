import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnalyticsEvent } from '../../schemas/generated/analytics-event'
import { startEventMaintenance } from './event-maintenance'
import { listEventPartitions, monthStart } from './event-partitions'
import { eventRow } from './event-rows'
import { insertEvents } from './event-store'
import { openStore, type Store } from './open-store'
import { sampleEvent } from './sample-event'

describe('the background event maintenance of a running server', () => {
  let store: Store
  beforeAll(async () => {
    store = await openStore({ databaseUrl: null, dataDir: null })
  }, 60_000)
  afterAll(() => store?.close())

  it('creates the months ahead, drops expired partitions and keeps the rollups caught up', async () => {
    const old = '2024-03-10T00:00:00.000Z'
    const body = { ...sampleEvent(randomUUID()), timestamp: old } as AnalyticsEvent
    await insertEvents(store.db, [{ ...eventRow(body, new Date(old), null) }])
    await insertEvents(store.db, [eventRow(sampleEvent(randomUUID()) as AnalyticsEvent, new Date(), null)])
    const m = startEventMaintenance(store.db, { retentionDays: 90, answersRetentionDays: 30, rollupMs: 50 })
    try {
      const next = new Date(monthStart(Date.now()))
      next.setUTCMonth(next.getUTCMonth() + 2)
      const ahead = `events_${next.toISOString().slice(0, 7).replace('-', '_')}`
      await expect
        .poll(async () => (await listEventPartitions(store.db)).map((p) => p.name), { timeout: 20_000 })
        .toContain(ahead)
      await expect
        .poll(async () => (await listEventPartitions(store.db)).map((p) => p.name), { timeout: 20_000 })
        .not.toContain('events_2024_03')
      await expect
        .poll(async () => (await store.db.query('SELECT 1 FROM rollup_dirty')).rows.length, {
          timeout: 20_000,
        })
        .toBe(0)
    } finally {
      await m.stop()
    }
  })
})
