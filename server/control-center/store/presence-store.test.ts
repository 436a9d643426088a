import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DB_KINDS, openTestStore, type TestStore } from '../../store/test-databases'
import { leavePresence, notePresence, otherEditors } from './presence-store'

const EXPIRY_MS = 45_000

describe.each(DB_KINDS)('presence rows on %s', { timeout: 60_000 }, (kind) => {
  let store: TestStore
  beforeAll(async () => {
    store = await openTestStore(kind, 'fw_presence_store')
  }, 120_000)
  afterAll(async () => {
    await store?.close()
  })

  const at = { branch: 'promo', path: 'definitions/pages/a.json' }

  it('lists the others on the same file, longest first, and not me; a leave removes a row at once', async () => {
    await notePresence(store.db, { ...at, userId: 'dana' }, EXPIRY_MS)
    await notePresence(store.db, { ...at, userId: 'eli' }, EXPIRY_MS)
    await notePresence(store.db, { ...at, path: 'definitions/pages/b.json', userId: 'fay' }, EXPIRY_MS)
    const seen = await otherEditors(store.db, { ...at, me: 'eli' }, EXPIRY_MS)
    expect(seen.map((e) => e.id)).toEqual(['dana'])
    expect(seen[0].since).toBeInstanceOf(Date)
    await leavePresence(store.db, { ...at, userId: 'dana' })
    expect(await otherEditors(store.db, { ...at, me: 'eli' }, EXPIRY_MS)).toEqual([])
  })

  it('keeps `since` across heartbeats, and counts a row older than the expiry as gone (swept by the next beat)', async () => {
    await notePresence(store.db, { ...at, userId: 'gil' }, EXPIRY_MS)
    const gil = async () =>
      (await otherEditors(store.db, { ...at, me: 'x' }, EXPIRY_MS)).filter((e) => e.id === 'gil')
    const [first] = await gil()
    await notePresence(store.db, { ...at, userId: 'gil' }, EXPIRY_MS)
    const [again] = await gil()
    expect(again.since.getTime()).toBe(first.since.getTime())
    await store.db.query(`UPDATE cc_presence SET seen_at = now() - interval '1 hour' WHERE user_id = 'gil'`)
    expect(await gil()).toEqual([])
    await notePresence(store.db, { ...at, userId: 'eli' }, EXPIRY_MS)
    const r = await store.db.query(`SELECT 1 FROM cc_presence WHERE user_id = 'gil'`)
    expect(r.rows).toEqual([])
  })
})
