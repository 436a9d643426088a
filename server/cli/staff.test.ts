import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkCredentials, createSession, findStaffUser, sessionUser } from '../store/auth-store'
import type { Store } from '../store/open-store'
import { runStaffCommand } from '../store/staff-commands'
import { DB_KINDS, openTestStore } from '../store/test-databases'

describe.each(DB_KINDS)('npm run staff on %s', (kind) => {
  let store: Store
  beforeAll(async () => {
    store = await openTestStore(kind)
  }, 120_000)
  afterAll(() => store?.close())

  it('adds a user with a role, changes the role, disables and enables — each audited', async () => {
    const email = `pub-${randomUUID()}@x.test`
    expect(
      await runStaffCommand(store.db, ['add', email, 'Pub', 'Lisher'], { role: 'publisher', password: 'pw' }),
    ).toEqual([expect.stringMatching(new RegExp(`^created ${email} \\(publisher\\)`))])
    const user = (await checkCredentials(store.db, email, 'pw'))!
    expect(user).toMatchObject({ name: 'Pub Lisher', role: 'publisher' })
    expect(await runStaffCommand(store.db, ['role', email, 'admin'], {})).toEqual([
      `${email}: publisher → admin`,
    ])
    expect((await findStaffUser(store.db, email))?.role).toBe('admin')
    const session = await createSession(store.db, user.id, { ip: null, userAgent: null })
    await runStaffCommand(store.db, ['disable', email], {})
    expect(await sessionUser(store.db, session.token)).toBeNull()
    expect(await checkCredentials(store.db, email, 'pw')).toBeNull()
    await runStaffCommand(store.db, ['enable', email], {})
    expect(await checkCredentials(store.db, email, 'pw')).not.toBeNull()
    const log = await store.db.query<{ action: string }>(
      'SELECT action FROM audit_log WHERE target = $1 ORDER BY id',
      [user.id],
    )
    expect(log.rows.map((r) => r.action)).toEqual([
      'staff-user-created',
      'role.change',
      'staff-user-disabled',
      'staff-user-enabled',
    ])
  })

  it('generates a password when none is given, and refuses bad input with a clear message', async () => {
    const lines = await runStaffCommand(store.db, ['add', `v-${randomUUID()}@x.test`, 'Vi'], {
      role: 'viewer',
    })
    expect(lines[1]).toMatch(/^password: \S{16}/)
    await expect(runStaffCommand(store.db, ['add', 'nope', 'X'], {})).rejects.toThrow(
      '"nope" is not an e-mail address',
    )
    await expect(runStaffCommand(store.db, ['add', 'a@x.test', 'X'], { role: 'owner' })).rejects.toThrow(
      'role "owner" is not one of viewer, editor, publisher, admin',
    )
    await expect(runStaffCommand(store.db, ['add', 'a@x.test'], {})).rejects.toThrow(/NAME/)
    await expect(runStaffCommand(store.db, ['role', 'ghost@x.test', 'admin'], {})).rejects.toThrow(
      'no staff user ghost@x.test',
    )
    await expect(runStaffCommand(store.db, ['fly'], {})).rejects.toThrow(/usage/)
  })
})
