import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AnalyticsEvent } from '../../schemas/generated/analytics-event'
import type { Db } from './db'
import {
  createPartitionsAhead,
  dropExpiredPartitions,
  EVENT_PARTITIONS_AHEAD_MONTHS,
  listEventPartitions,
} from './event-partitions'
import { EVENT_CLIENT_TS_AHEAD_DAYS, EVENT_CLIENT_TS_PAST_DAYS, eventRow } from './event-rows'
import { countEvents, eventsById, exportEvents, insertEvents } from './event-store'
import { EventWriter } from './event-writer'
import { leadStory } from './lead-store'
import { listMigrations, migrate } from './migrate'
import type { Store } from './open-store'
import { openPglite } from './pglite-db'
import { sampleEvent } from './sample-event'
import { DB_KINDS, openTestStore } from './test-databases'

const DAY_MS = 86_400_000

/** An event of `anon` at client time `at`, received at `received`. */
function rowAt(at: string, anon = 'anon-p', received = at) {
  const body = { ...sampleEvent(randomUUID()), anonymousId: anon, sessionId: `s-${anon}`, timestamp: at }
  return eventRow(body as AnalyticsEvent, new Date(received), null)
}

describe('migration 0016 on a store that already holds events', () => {
  let db: Db
  afterAll(() => db?.close())

  it('moves every row into monthly partitions, keeps redelivery dedup and the indexes', async () => {
    db = await openPglite()
    const all = listMigrations()
    await migrate(
      db,
      all.filter((m) => m.version < 16),
    )
    const rows = [
      '2026-03-05T10:00:00Z',
      '2026-03-28T10:00:00Z',
      '2026-07-01T00:00:00Z',
      '2026-11-20T12:00:00Z',
    ].map((t) => rowAt(t))
    await db.query(
      `INSERT INTO events (id, type, name, brand_id, session_id, anonymous_id, user_id, paid, client_ts, received_at, ip, body)
       SELECT id, type, name, brand_id, session_id, anonymous_id, user_id, paid, client_ts, received_at, ip, body
       FROM jsonb_to_recordset($1::jsonb) AS x(id text, type text, name text, brand_id text, session_id text,
         anonymous_id text, user_id text, paid boolean, client_ts timestamptz, received_at timestamptz, ip text, body jsonb)`,
      [JSON.stringify(rows)],
    )
    expect(await migrate(db)).toContain(16)
    expect(await countEvents(db)).toBe(4)
    // Their browser is marked: the rollup job builds its rows.
    expect((await db.query('SELECT anonymous_id FROM rollup_dirty')).rows).toEqual([
      { anonymous_id: 'anon-p' },
    ])
    const parts = await listEventPartitions(db)
    expect(parts.map((p) => p.name)).toEqual(
      expect.arrayContaining(['events_2026_03', 'events_2026_07', 'events_2026_11']),
    )
    const mine = await db.query<{ part: string; n: number }>(
      `SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM events GROUP BY 1 ORDER BY 1`,
    )
    expect(mine.rows).toEqual([
      { part: 'events_2026_03', n: 2 },
      { part: 'events_2026_07', n: 1 },
      { part: 'events_2026_11', n: 1 },
    ])
    // A redelivery of a migrated event, even with another timestamp, is still stored once.
    expect(
      await insertEvents(db, [{ ...rows[0] }, { ...rows[2], client_ts: '2026-11-21T00:00:00.000Z' }]),
    ).toBe(0)
    const idx = await db.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'events_2026_03' ORDER BY 1`,
    )
    expect(idx.rows.length).toBeGreaterThanOrEqual(6)
  }, 120_000)
})

describe.each(DB_KINDS)('monthly event partitions on %s', (kind) => {
  let store: Store
  beforeAll(async () => {
    store = await openTestStore(kind, 'fw_partitions')
  }, 60_000)
  afterAll(() => store?.close())

  it('numbers the rows of one insert in the order given (seq), whatever plan the database picks', async () => {
    // Enough stored rows that the planner may hash the batch for its NOT EXISTS probe.
    const at = '2026-11-20T10:00:00.000Z'
    for (let i = 0; i < 5; i++)
      await insertEvents(
        store.db,
        Array.from({ length: 200 }, () => rowAt(at, `anon-bulk-${i}`)),
      )
    const batch = Array.from({ length: 300 }, () => rowAt(at, 'anon-seq'))
    expect(await insertEvents(store.db, batch)).toBe(300)
    const stored = await store.db.query<{ id: string }>(
      "SELECT id FROM events WHERE anonymous_id = 'anon-seq' ORDER BY seq",
    )
    expect(stored.rows.map((r) => r.id)).toEqual(batch.map((r) => r.id))
  })

  it('creates the months ahead, and any month an insert needs (no insert fails for a missing one)', async () => {
    const now = Date.parse('2027-05-15T00:00:00Z')
    await createPartitionsAhead(store.db, now)
    const names = (await listEventPartitions(store.db)).map((p) => p.name)
    expect(names).toEqual(expect.arrayContaining(['events_2027_05', 'events_2027_06', 'events_2027_07']))
    expect(EVENT_PARTITIONS_AHEAD_MONTHS).toBe(2)
    // A late event (a year back) and an early one (months ahead) through the writer.
    const late = rowAt('2025-12-31T23:59:59.999Z', 'anon-late', '2026-01-02T00:00:00Z')
    const early = rowAt('2028-02-01T00:00:00Z', 'anon-early', '2028-01-31T00:00:00Z')
    await store.events.write([late, early])
    expect((await eventsById(store.db, [late.id, early.id])).length).toBe(2)
    expect((await listEventPartitions(store.db)).map((p) => p.name)).toEqual(
      expect.arrayContaining(['events_2025_12', 'events_2028_02']),
    )
  })

  it('files a client time far from the server time at the nearest bound', () => {
    const received = new Date('2026-11-26T00:00:00Z')
    const body = (timestamp: string) => ({ ...sampleEvent(), timestamp }) as AnalyticsEvent
    expect(eventRow(body('1971-01-01T00:00:00Z'), received, null).client_ts).toBe(
      new Date(received.getTime() - EVENT_CLIENT_TS_PAST_DAYS * DAY_MS).toISOString(),
    )
    expect(eventRow(body('9999-01-01T00:00:00Z'), received, null).client_ts).toBe(
      new Date(received.getTime() + EVENT_CLIENT_TS_AHEAD_DAYS * DAY_MS).toISOString(),
    )
    const row = eventRow(body('2026-11-25T10:00:00.000Z'), received, null)
    expect(row.client_ts).toBe('2026-11-25T10:00:00.000Z')
    // The body keeps what the client sent.
    expect(eventRow(body('1971-01-01T00:00:00Z'), received, null).body.timestamp).toBe('1971-01-01T00:00:00Z')
  })

  it('exports and tells a lead whose events span several partitions', async () => {
    const anon = `anon-span-${kind}`
    const rows = ['2026-01-30T23:00:00Z', '2026-02-01T00:30:00Z', '2026-03-02T08:00:00Z'].map((t) =>
      rowAt(t, anon),
    )
    await insertEvents(store.db, rows)
    const exported: string[] = []
    for await (const e of exportEvents(store.db, new Date('2026-01-01'), new Date('2026-04-01'), 2))
      if (e.anonymous_id === anon) exported.push(e.id)
    expect(exported).toEqual(rows.map((r) => r.id))
    const story = await leadStory(store.db, anon)
    expect(
      story.entries.filter((e) => e.kind === 'event').map((e) => (e as { event: { id: string } }).event.id),
    ).toEqual(rows.map((r) => r.id))
  })

  it('stores an event id once under any concurrency: 200 pairs racing, in different months → 200 rows', async () => {
    const anon = `anon-race-${kind}`
    // Two deliveries of each id, with client times a month apart (a clock clamped differently on
    // each arrival), through two writers (two instances on one database) and straight transactions.
    const firsts = Array.from({ length: 200 }, () => rowAt('2026-05-10T10:00:00Z', anon))
    const seconds = firsts.map((r) => ({ ...r, client_ts: '2026-06-12T10:00:00.000Z' }))
    const a = new EventWriter(store.db)
    const b = new EventWriter(store.db)
    await Promise.all(
      firsts.flatMap((first, i) => [
        i % 2 ? a.write([first]) : store.db.transaction((tx) => insertEvents(tx, [first])),
        i % 2 ? b.write([seconds[i]]) : store.db.transaction((tx) => insertEvents(tx, [seconds[i]])),
      ]),
    )
    // And both of a pair in one batch.
    await insertEvents(store.db, [rowAt('2026-05-11T00:00:00Z', anon), ...seconds.slice(0, 5)])
    const n = await store.db.query<{ n: number; ids: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids FROM events WHERE anonymous_id = $1',
      [anon],
    )
    expect(n.rows[0]).toEqual({ n: 201, ids: 201 })
  })

  it('retention drops only whole partitions past the cutoff, each with an audit entry', async () => {
    await insertEvents(store.db, [
      rowAt('2024-01-10T00:00:00Z', 'anon-old'),
      rowAt('2024-02-10T00:00:00Z', 'anon-old'),
      rowAt('2024-02-28T00:00:00Z', 'anon-old'),
    ])
    // Cutoff 2024-02-19: January ended before it and goes; February still holds newer events and stays.
    const now = Date.parse('2024-03-20T00:00:00Z')
    const dropped = await dropExpiredPartitions(store.db, 30, now)
    expect(dropped.map((p) => p.name)).toEqual(['events_2024_01'])
    const names = (await listEventPartitions(store.db)).map((p) => p.name)
    expect(names).not.toContain('events_2024_01')
    expect(names).toContain('events_2024_02')
    const left = await store.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE anonymous_id = 'anon-old'`,
    )
    expect(left.rows[0].n).toBe(2)
    const audit = await store.db.query<{ target: string; details: { rows: number; retentionDays: number } }>(
      `SELECT target, details FROM audit_log WHERE action = 'events.retention.drop-partition'`,
    )
    expect(audit.rows).toEqual([
      { target: 'events_2024_01', details: expect.objectContaining({ rows: 1, retentionDays: 30 }) },
    ])
    // The claims of the dropped events went with them (migration 0017); the others stay.
    const claims = await store.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event_ids WHERE client_ts >= '2024-01-01' AND client_ts < '2024-03-01'`,
    )
    expect(claims.rows[0].n).toBe(2)
    // Nothing else is expired: a second run drops nothing.
    expect(await dropExpiredPartitions(store.db, 30, now)).toEqual([])
  })
})
