import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventRow } from '../store/event-rows'
import { EXPORT_PAGE_ROWS, exportEvents, insertEvents } from '../store/event-store'
import { sampleEvent } from '../store/sample-event'
import { DB_KINDS, openTestStore, type TestStore } from '../store/test-databases'

const TOTAL = 2 * EXPORT_PAGE_ROWS + 500
const START = Date.UTC(2026, 0, 1)

describe.each(DB_KINDS)('events export on %s', (kind) => {
  let store: TestStore

  beforeAll(async () => {
    store = await openTestStore(kind)
    // One event a second from START, some received at the very same instant (ties by id).
    const rows = Array.from({ length: TOTAL }, (_, i) =>
      eventRow(sampleEvent(randomUUID()), new Date(START + Math.floor(i / 2) * 1000), null),
    )
    for (let i = 0; i < rows.length; i += 1000) await insertEvents(store.db, rows.slice(i, i + 1000))
  }, 60_000)
  afterAll(() => store?.close())

  it(`streams every row of a range larger than one page (${TOTAL} rows), in order, none twice`, async () => {
    const seen: string[] = []
    let last = ''
    for await (const e of exportEvents(store.db, new Date(START), new Date(START + TOTAL * 1000), 700)) {
      expect(e.received_at >= last).toBe(true)
      last = e.received_at
      seen.push(e.id)
    }
    expect(seen.length).toBe(TOTAL)
    expect(new Set(seen).size).toBe(TOTAL)
  })

  it('keeps to [since, until)', async () => {
    let n = 0
    for await (const _ of exportEvents(store.db, new Date(START + 10_000), new Date(START + 20_000))) n++
    expect(n).toBe(20)
  })

  if (kind === 'postgres')
    it('npm run events -- export --since … --until … --json prints them all, past the old 1000 cap', () => {
      const r = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'server/cli/events.ts',
          'export',
          '--since',
          new Date(START).toISOString(),
          '--until',
          new Date(START + TOTAL * 1000).toISOString(),
          '--json',
        ],
        {
          cwd: join(import.meta.dirname, '..', '..'),
          env: { ...process.env, DATABASE_URL: store.databaseUrl!, LOG_LEVEL: 'error' },
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        },
      )
      expect(r.stderr).toBe('')
      const lines = r.stdout.trim().split('\n')
      expect(lines.length).toBe(TOTAL)
      expect(JSON.parse(lines[0]).received_at).toBe(new Date(START).toISOString())
    }, 60_000)
})
