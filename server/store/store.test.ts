import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  audit,
  checkCredentials,
  createSession,
  createStaffUser,
  deleteSession,
  sessionUser,
} from './auth-store'
import { eventRow } from './event-rows'
import { countEvents, eventsById, latestEvents } from './event-store'
import { listMigrations, migrate } from './migrate'
import type { Store } from './open-store'
import { sampleEvent } from './sample-event'
import { DB_KINDS, openTestStore } from './test-databases'

describe.each(DB_KINDS)('data store on %s', (kind) => {
  let store: Store

  beforeAll(async () => {
    store = await openTestStore(kind)
  }, 60_000)
  afterAll(() => store?.close())

  it('applied every migration once; applying again changes nothing', async () => {
    const r = await store.db.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    )
    expect(r.rows.map((x) => x.version)).toEqual(listMigrations().map((m) => m.version))
    expect(await migrate(store.db)).toEqual([])
    const tables = await store.db.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
    )
    expect(tables.rows.map((t) => t.table_name)).toEqual(
      expect.arrayContaining([
        'events',
        'visitors',
        'staff_users',
        'auth_sessions',
        'audit_log',
        'schema_migrations',
        'cc_branches',
        'cc_drafts',
        'content_publications',
      ]),
    )
  })

  it('writes concurrent requests in group commits, every one acknowledged and stored, duplicates once', async () => {
    const before = await countEvents(store.db)
    const ids = Array.from({ length: 300 }, () => randomUUID())
    const now = new Date()
    await Promise.all(
      ids.map((id) => store.events.write([eventRow(sampleEvent(id) as never, now, '10.0.0.1')])),
    )
    await Promise.all(
      ids.slice(0, 50).map((id) => store.events.write([eventRow(sampleEvent(id) as never, now, null)])),
    )
    expect(await countEvents(store.db)).toBe(before + 300)
    const rows = await eventsById(store.db, ids.slice(0, 3))
    expect(rows.every((r) => r.ip === '10.0.0.1')).toBe(true)
  })

  it('a failed write rejects its callers and the next write still works', async () => {
    const bad = { ...eventRow(sampleEvent() as never, new Date(), null), client_ts: 'not a time' }
    await expect(store.events.write([bad])).rejects.toThrow()
    const id = randomUUID()
    await store.events.write([eventRow(sampleEvent(id) as never, new Date(), null)])
    expect(await eventsById(store.db, [id])).toHaveLength(1)
  })

  it('lists the latest events newest first', async () => {
    // Three events received an hour apart, later than anything else in the store, written oldest
    // last so that neither insertion order nor id order can pass for "newest first".
    const base = Date.now() + 24 * 3600_000
    const ids = [randomUUID(), randomUUID(), randomUUID()]
    for (const [i, id] of ids.entries())
      await store.events.write([
        eventRow(sampleEvent(id) as never, new Date(base + (3 - i) * 3600_000), null),
      ])
    const latest = await latestEvents(store.db, 2)
    expect(latest.map((e) => e.id)).toEqual([ids[0], ids[1]])
    const after = await latestEvents(store.db, 10, new Date(base + 1.5 * 3600_000).toISOString())
    expect(after.map((e) => e.id)).toEqual([ids[0], ids[1]])
  })

  it('staff users, sessions and the audit log', async () => {
    const email = `Staff-${randomUUID()}@Example.com`
    const user = await createStaffUser(store.db, { email, name: 'Sam Staff', password: 'correct horse' })
    expect(user.email).toBe(email.toLowerCase())
    expect(await checkCredentials(store.db, email, 'wrong')).toBeNull()
    expect(await checkCredentials(store.db, email, 'correct horse')).toEqual(user)
    const session = await createSession(store.db, user.id, { ip: null, userAgent: 'UA' })
    expect(await sessionUser(store.db, session.token)).toEqual(user)
    expect(await sessionUser(store.db, `${session.token}x`)).toBeNull()
    expect(await deleteSession(store.db, session.token)).toBe(user.id)
    expect(await sessionUser(store.db, session.token)).toBeNull()
    const expired = await createSession(
      store.db,
      user.id,
      { ip: null, userAgent: null },
      Date.now() - 48 * 3600_000,
    )
    expect(await sessionUser(store.db, expired.token)).toBeNull()
    await audit(store.db, { actor: user.id, action: 'test', details: { a: 1 } })
    const log = await store.db.query<{ action: string }>('SELECT action FROM audit_log WHERE actor = $1', [
      user.id,
    ])
    expect(log.rows.map((r) => r.action)).toEqual(['test'])
  })

  it('keeps the audit log append-only: UPDATE, DELETE and TRUNCATE are refused', async () => {
    await audit(store.db, { actor: 'append-only-test', action: 'test' })
    await expect(
      store.db.query("UPDATE audit_log SET action = 'x' WHERE actor = 'append-only-test'"),
    ).rejects.toThrow(/audit_log is append-only: UPDATE refused/)
    await expect(store.db.query("DELETE FROM audit_log WHERE actor = 'append-only-test'")).rejects.toThrow(
      /append-only: DELETE refused/,
    )
    await expect(store.db.query('TRUNCATE audit_log')).rejects.toThrow(/append-only: TRUNCATE refused/)
    const rows = await store.db.query("SELECT action FROM audit_log WHERE actor = 'append-only-test'")
    expect(rows.rows).toEqual([{ action: 'test' }])
  })

  it('accepts only the four staff roles', async () => {
    for (const role of ['viewer', 'editor', 'publisher', 'admin'])
      await createStaffUser(store.db, {
        email: `${role}-${randomUUID()}@x.test`,
        name: role,
        password: 'pw',
        role,
      })
    await expect(
      createStaffUser(store.db, {
        email: `owner-${randomUUID()}@x.test`,
        name: 'o',
        password: 'pw',
        role: 'owner',
      }),
    ).rejects.toThrow(/staff_users_role_check/)
  })
})

describe('migration statements', () => {
  it('split at semicolons outside comments, quotes and dollar-quoted bodies', async () => {
    const { splitStatements } = await import('./migrate')
    expect(
      splitStatements(`CREATE TABLE a (x text DEFAULT ';'); -- a comment; still a comment
CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no; %', 'it''s'; END $$;
SELECT 'it''s; fine'`),
    ).toEqual([
      "CREATE TABLE a (x text DEFAULT ';')",
      "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no; %', 'it''s'; END $$",
      "SELECT 'it''s; fine'",
    ])
  })
})
