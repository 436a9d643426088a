import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { eventsById } from '../../server/store/event-store'
import { openStore } from '../../server/store/open-store'
import { sampleEvent } from '../../server/store/sample-event'
import { DB_KINDS, dropPostgresSchema, uniquePostgresUrl } from '../../server/store/test-databases'
import { startServerProcess } from './server-process'

const CLIENTS = 8

/** Posts events from several clients until stopped; returns the ids the server acknowledged. */
function hammer(port: number) {
  const acked: string[] = []
  let running = true
  const loops = Array.from({ length: CLIENTS }, async () => {
    while (running) {
      const batch = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => sampleEvent())
      try {
        const r = await fetch(`http://127.0.0.1:${port}/api/event/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(batch),
        })
        if (r.status === 200) for (const e of batch) acked.push(e.properties.eventId)
      } catch {
        // The server died mid-request: this batch was never acknowledged.
        await new Promise((r) => setTimeout(r, 20))
      }
    }
  })
  return {
    acked,
    stop: async () => {
      running = false
      await Promise.all(loops)
    },
  }
}

describe.each(DB_KINDS)('durability on %s', (kind) => {
  it('kill -9 while events stream in loses no acknowledged event', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fw-durability-'))
    const pg = kind === 'postgres' ? uniquePostgresUrl('fw_durability') : null
    const env: Record<string, string> = pg ? { DATABASE_URL: pg.url } : { DATA_DIR: dataDir }
    try {
      const first = await startServerProcess(env)
      const load = hammer(first.port)
      await expect.poll(() => load.acked.length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(200)
      expect(await first.stop('SIGKILL')).toBeNull()
      await load.stop()
      const acked = [...load.acked]

      // The server comes back on the same data and keeps taking events.
      const second = await startServerProcess(env)
      const after = sampleEvent(randomUUID())
      const r = await fetch(`http://127.0.0.1:${second.port}/api/event/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(after),
      })
      expect(r.status).toBe(200)
      await second.stop('SIGTERM')

      const store = await openStore({ databaseUrl: pg?.url ?? null, dataDir })
      try {
        const found = new Set(
          (await eventsById(store.db, [...acked, after.properties.eventId])).map((e) => e.id),
        )
        const missing = acked.filter((id) => !found.has(id))
        expect(missing).toEqual([])
        expect(found.has(after.properties.eventId)).toBe(true)
      } finally {
        await store.close()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
      if (pg) await dropPostgresSchema(pg.schema)
    }
  }, 400_000)
})
