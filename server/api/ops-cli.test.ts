import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CcHarness, startCcHarness } from '../control-center/api/cc-test-harness'

describe('the CLIs’ operator endpoints (docs/decisions/0616, 0617, 0722)', () => {
  let h: CcHarness<'publisher'>
  beforeAll(async () => {
    h = await startCcHarness({
      prefix: 'fw-ops-cli-',
      staff: { publisher: { name: 'Pub', role: 'publisher' } },
      ops: true,
    })
  }, 60_000)
  afterAll(() => h?.close())

  it('answer 404 on the site port, as an unknown API, whatever the header or Host', async () => {
    for (const host of ['127.0.0.1', 'localhost', 'm10.localhost', 'ccc.localhost'])
      for (const headers of [{}, { 'x-ops-token': 'anything' }] as Record<string, string>[]) {
        expect(
          (
            await h.call(
              null,
              'POST',
              '/api/_ops/staff',
              { args: ['add', 'm@x.test', 'M'] },
              { host, ...headers },
            )
          ).status,
        ).toBe(404)
        expect(
          (await h.call(null, 'POST', '/api/_ops/previews', { branch: 'x' }, { host, ...headers })).status,
        ).toBe(404)
      }
    expect((await h.store.db.query(`SELECT 1 FROM staff_users WHERE email = 'm@x.test'`)).rows).toEqual([])
  })

  it('staff: runs the command and answers its lines; bad input is a 400 that says what is wrong', async () => {
    const add = await h.ops.call('POST', '/api/_ops/staff', {
      args: ['add', 'ed@x.test', 'Ed'],
      password: 'pw-of-ed',
    })
    expect(add.status, add.text).toBe(200)
    expect(add.json.lines).toEqual([expect.stringMatching(/^created ed@x\.test \(editor\), id /)])
    const again = await h.ops.call('POST', '/api/_ops/staff', { args: ['add', 'ed@x.test', 'Ed'] })
    expect(again.status).toBe(400)
    expect(again.json.error).toBe('a user with the e-mail ed@x.test already exists')
    expect(
      (await h.ops.call('POST', '/api/_ops/staff', { args: ['role', 'ed@x.test', 'owner'] })).json.error,
    ).toBe('role "owner" is not one of viewer, editor, publisher, admin')
    expect((await h.ops.call('POST', '/api/_ops/staff', { args: [] })).status).toBe(400)
    for (const args of [
      ['add', 'nul@x.test', 'A\u0000B'],
      ['role', 'a\u0000@x.test', 'admin'],
      ['unlock', 'a\u0000@x.test'],
    ])
      expect((await h.ops.call('POST', '/api/_ops/staff', { args })).json.error).toMatch(
        /^\/args\/\d: contains a NUL character/,
      )
    expect((await h.ops.call('POST', '/api/_ops/staff', { args: ['x'], extra: 1 })).status).toBe(400)
  })

  it('previews: a grant of the branch for the newest active user (or the one named), signed with the server’s key', async () => {
    const head = (await h.call('publisher', 'POST', '/api/cc/branches', { title: 'Spring' })).json.branch.head
    expect(head).toMatch(/^[0-9a-f]{40}$/)
    const r = await h.ops.call('POST', '/api/_ops/previews', { branch: 'spring' })
    expect(r.status, r.text).toBe(200)
    expect(r.json.email).toBe('ed@x.test')
    const grant = h.cc.previews.verify(r.json.token)
    expect(grant).toMatchObject({ branch: 'spring', drafts: false })
    const named = await h.ops.call('POST', '/api/_ops/previews', { branch: 'spring', as: 'ghost@x.test' })
    expect(named.status).toBe(400)
    expect(named.json.error).toBe('no active staff user ghost@x.test')
    expect((await h.ops.call('POST', '/api/_ops/previews', { branch: 'nope' })).status).toBe(404)
    expect((await h.ops.call('POST', '/api/_ops/previews', { branch: '../x' })).status).toBe(400)
  })

  it('any body gets an answer below 500', async () => {
    const word = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        'add',
        'role',
        'disable',
        'enable',
        'unlock',
        'admin',
        'fuzz@x.test',
        'a\u0000@x.test',
        'N\u0000',
      ),
    )
    const body = fc.oneof(
      fc.record({
        args: fc.array(word, { maxLength: 5 }),
        role: fc.option(word, { nil: undefined }),
        password: fc.option(word, { nil: undefined }),
      }),
      fc.record({ branch: word, as: fc.option(word, { nil: undefined }) }),
      fc.jsonValue({ maxDepth: 3 }),
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/api/_ops/staff', '/api/_ops/previews'), body, async (path, b) => {
        const r = await h.ops.call('POST', path, b)
        expect(r.status, `${path} ${JSON.stringify(b)} → ${r.text}`).toBeLessThan(500)
      }),
      { numRuns: 150 },
    )
  })
})
