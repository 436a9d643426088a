import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CcHarness, startCcHarness } from '../control-center/api/cc-test-harness'

const TOKEN = 'ops-token-for-the-test-0123456789'
const ops = { 'x-ops-token': TOKEN }

describe('the CLIs’ operator endpoints (docs/decisions/0616, 0617)', () => {
  let h: CcHarness<'publisher'>
  beforeAll(async () => {
    h = await startCcHarness({
      prefix: 'fw-ops-cli-',
      staff: { publisher: { name: 'Pub', role: 'publisher' } },
      opsToken: TOKEN,
    })
  }, 60_000)
  afterAll(() => h?.close())

  it('answer 404 without the token, as an unknown API', async () => {
    expect(
      (await h.call(null, 'POST', '/api/_ops/staff', { args: ['role', 'a@x.test', 'admin'] })).status,
    ).toBe(404)
    expect(
      (await h.call(null, 'POST', '/api/_ops/previews', { branch: 'x' }, { 'x-ops-token': 'nope' })).status,
    ).toBe(404)
  })

  it('staff: runs the command and answers its lines; bad input is a 400 that says what is wrong', async () => {
    const add = await h.call(
      null,
      'POST',
      '/api/_ops/staff',
      { args: ['add', 'ed@x.test', 'Ed'], password: 'pw-of-ed' },
      ops,
    )
    expect(add.status, add.text).toBe(200)
    expect(add.json.lines).toEqual([expect.stringMatching(/^created ed@x\.test \(editor\), id /)])
    const again = await h.call(null, 'POST', '/api/_ops/staff', { args: ['add', 'ed@x.test', 'Ed'] }, ops)
    expect(again.status).toBe(400)
    expect(again.json.error).toBe('a user with the e-mail ed@x.test already exists')
    expect(
      (await h.call(null, 'POST', '/api/_ops/staff', { args: ['role', 'ed@x.test', 'owner'] }, ops)).json
        .error,
    ).toBe('role "owner" is not one of viewer, editor, publisher, admin')
    expect((await h.call(null, 'POST', '/api/_ops/staff', { args: [] }, ops)).status).toBe(400)
    for (const args of [
      ['add', 'nul@x.test', 'A\u0000B'],
      ['role', 'a\u0000@x.test', 'admin'],
      ['unlock', 'a\u0000@x.test'],
    ])
      expect((await h.call(null, 'POST', '/api/_ops/staff', { args }, ops)).json.error).toMatch(
        /^\/args\/\d: contains a NUL character/,
      )
    expect((await h.call(null, 'POST', '/api/_ops/staff', { args: ['x'], extra: 1 }, ops)).status).toBe(400)
  })

  it('previews: a grant of the branch for the newest active user (or the one named), signed with the server’s key', async () => {
    const head = (await h.call('publisher', 'POST', '/api/cc/branches', { title: 'Spring' })).json.branch.head
    expect(head).toMatch(/^[0-9a-f]{40}$/)
    const r = await h.call(null, 'POST', '/api/_ops/previews', { branch: 'spring' }, ops)
    expect(r.status, r.text).toBe(200)
    expect(r.json.email).toBe('ed@x.test')
    const grant = h.cc.previews.verify(r.json.token)
    expect(grant).toMatchObject({ branch: 'spring', drafts: false })
    const named = await h.call(
      null,
      'POST',
      '/api/_ops/previews',
      { branch: 'spring', as: 'ghost@x.test' },
      ops,
    )
    expect(named.status).toBe(400)
    expect(named.json.error).toBe('no active staff user ghost@x.test')
    expect((await h.call(null, 'POST', '/api/_ops/previews', { branch: 'nope' }, ops)).status).toBe(404)
    expect((await h.call(null, 'POST', '/api/_ops/previews', { branch: '../x' }, ops)).status).toBe(400)
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
        const r = await h.call(null, 'POST', path, b, ops)
        expect(r.status, `${path} ${JSON.stringify(b)} → ${r.text}`).toBeLessThan(500)
      }),
      { numRuns: 150 },
    )
  })
})
