import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { audit } from '../../store/auth-store'
import { DB_KINDS, openTestStore, type TestStore } from '../../store/test-databases'
import { auditRowExists, readAuditLog } from './audit-log-reader'

describe.each(DB_KINDS)('the activity log read on %s', { timeout: 60_000 }, (kind) => {
  let store: TestStore
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    store = await openTestStore(kind, 'fw_audit_read')
    const rows: [string, string, string | null, string | null][] = [
      ['first', 'sign-in', 'dana', null],
      ['commit', 'commit', 'dana', 'promo'],
      ['role', 'staff.role', 'admin', 'eli'],
      ['branch', 'branch.create', 'eli', 'other'],
      ['publish', 'publish', 'admin', 'promo'],
    ]
    for (const [name, action, actor, target] of rows) {
      await audit(store.db, { actor, action, target: target ?? undefined })
      const r = await store.db.query<{ id: string }>('SELECT max(id)::text AS id FROM audit_log')
      ids[name] = r.rows[0].id
    }
  }, 120_000)
  afterAll(async () => {
    await store?.close()
  })

  const actions = (rows: { action: string }[]) => rows.map((r) => r.action)

  it('answers newest first, the newest `limit` rows, and filters by actor, action and branch', async () => {
    expect(actions(await readAuditLog(store.db, { limit: 10 }))).toEqual([
      'publish',
      'branch.create',
      'staff.role',
      'commit',
      'sign-in',
    ])
    expect(actions(await readAuditLog(store.db, { limit: 2 }))).toEqual(['publish', 'branch.create'])
    expect(actions(await readAuditLog(store.db, { actor: 'dana', limit: 10 }))).toEqual(['commit', 'sign-in'])
    expect(actions(await readAuditLog(store.db, { action: 'commit', limit: 10 }))).toEqual(['commit'])
    expect(actions(await readAuditLog(store.db, { branch: 'promo', limit: 10 }))).toEqual([
      'publish',
      'commit',
    ])
  })

  it('pages with `before`, and says whether a cursor row exists', async () => {
    expect(actions(await readAuditLog(store.db, { before: ids.role, limit: 10 }))).toEqual([
      'commit',
      'sign-in',
    ])
    expect(await auditRowExists(store.db, ids.role)).toBe(true)
    expect(await auditRowExists(store.db, '999999999')).toBe(false)
  })

  it('gives a reader without audit.read the rows about branches and their own only', async () => {
    expect(actions(await readAuditLog(store.db, { limitedTo: 'dana', limit: 10 }))).toEqual([
      'publish',
      'branch.create',
      'commit',
      'sign-in',
    ])
    expect(actions(await readAuditLog(store.db, { limitedTo: 'eli', limit: 10 }))).toEqual([
      'publish',
      'branch.create',
      'commit',
    ])
    // Filters and the limit to one's own combine (each placeholder its own number).
    expect(actions(await readAuditLog(store.db, { actor: 'admin', limitedTo: 'eli', limit: 10 }))).toEqual([
      'publish',
    ])
  })
})
