import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openStore } from '../../server/store/open-store'
import { sampleEvent } from '../../server/store/sample-event'
import { DB_KINDS, dropPostgresSchema, uniquePostgresUrl } from '../../server/store/test-databases'
import { startEventLoad, storedOnce } from './event-load'
import { startServerProcess } from './server-process'

describe.each(DB_KINDS)('durability on %s', (kind) => {
  it('kill -9 while events stream in loses no acknowledged event', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fw-durability-'))
    const pg = kind === 'postgres' ? uniquePostgresUrl('fw_durability') : null
    // DATA_DIR on PostgreSQL too: it also holds the content repository, which must not land in the checkout.
    const env: Record<string, string> = pg
      ? { DATABASE_URL: pg.url, DATA_DIR: dataDir }
      : { DATA_DIR: dataDir }
    try {
      const first = await startServerProcess(env)
      const load = startEventLoad(first.port)
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
        expect(await storedOnce(store.db, [...acked, after.properties.eventId])).toEqual({
          missing: [],
          duplicated: [],
        })
      } finally {
        await store.close()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
      if (pg) await dropPostgresSchema(pg.schema)
    }
  }, 400_000)
})
