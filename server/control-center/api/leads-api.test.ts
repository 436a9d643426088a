import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CcHarness, startCcHarness } from './cc-test-harness'

/** A person's data on request for an admin (docs/decisions/0811): export and erase, audited without the key. */
describe('the control center leads API and the operator endpoints of npm run leads', {
  timeout: 90_000,
}, () => {
  let h: CcHarness<'ada' | 'ed'>
  beforeAll(async () => {
    h = await startCcHarness({
      prefix: 'fw-cc-leads-',
      staff: { ada: { name: 'Ada', role: 'admin' }, ed: { name: 'Ed', role: 'publisher' } },
      ops: true,
    })
    await h.store.db.query(
      `INSERT INTO funnel_answers (anonymous_id, bucket, answers) VALUES
         ('person-anon-1', 'funnelworks:form:shared', '{"email":"ana.erase@example.net","firstName":"Anastasia"}'),
         ('person-anon-2', 'funnelworks:form:shared', '{"email":"bo.other@example.net"}')`,
    )
  }, 120_000)
  afterAll(() => h?.close(), 60_000)

  const ops = (path: string, body: unknown) => h.ops.call('POST', path, body)

  it('only an admin exports or erases; both are audited without the key; erase makes export say erased', async () => {
    expect(
      (await h.call('ed', 'POST', '/api/cc/leads/export', { key: 'ana.erase@example.net' })).status,
    ).toBe(403)
    expect((await h.call('ed', 'POST', '/api/cc/leads/erase', { key: 'ana.erase@example.net' })).status).toBe(
      403,
    )
    expect((await h.call('ada', 'POST', '/api/cc/leads/export', { key: '' })).status).toBe(400)
    expect((await h.call('ada', 'POST', '/api/cc/leads/export', { key: 'a\u0000b' })).status).toBe(400)

    const held = await h.call('ada', 'POST', '/api/cc/leads/export', { key: 'ANA.erase@example.net' })
    expect(held.status).toBe(200)
    expect(held.json).toMatchObject({ matchedBy: 'email', anonymousIds: ['person-anon-1'], erased: null })
    expect(held.json.answers[0].answers).toEqual({ email: 'ana.erase@example.net', firstName: 'Anastasia' })

    const erased = await h.call('ada', 'POST', '/api/cc/leads/erase', { key: 'ana.erase@example.net' })
    expect(erased.status).toBe(200)
    expect(erased.json).toMatchObject({ matchedBy: 'email', counts: { funnel_answers: 1 } })
    const after = await h.call('ada', 'POST', '/api/cc/leads/export', { key: 'ana.erase@example.net' })
    expect(after.json).toMatchObject({ matchedBy: null, answers: [], erased: { id: erased.json.erasureId } })

    const audit = await h.store.db.query<{ actor: string; action: string; target: string; details: unknown }>(
      "SELECT actor, action, target, details FROM audit_log WHERE action LIKE 'lead.%' ORDER BY id",
    )
    expect(audit.rows.map((r) => [r.action, r.actor])).toEqual([
      ['lead.export', h.staff.ada.id],
      ['lead.erase', h.staff.ada.id],
      ['lead.export', h.staff.ada.id],
    ])
    expect(JSON.stringify(audit.rows)).not.toMatch(/ana\.erase|Anastasia/i)
    // The other person is untouched.
    const other = await h.store.db.query('SELECT 1 FROM funnel_answers WHERE anonymous_id = $1', [
      'person-anon-2',
    ])
    expect(other.rows).toHaveLength(1)
  })

  it('the operator endpoints export and erase over the operator socket, and answer 404 on the site port', async () => {
    const held = await ops('/api/_ops/leads/export', { key: 'bo.other@example.net' })
    expect(held.status).toBe(200)
    expect(held.json.anonymousIds).toEqual(['person-anon-2'])
    expect((await ops('/api/_ops/leads/erase', { key: 42 })).status).toBe(400)
    const noToken = await h.send(null, 'POST', '/api/_ops/leads/erase', '{"key":"bo.other@example.net"}', {
      host: '127.0.0.1',
      'content-type': 'application/json',
      'x-ops-token': 'anything',
    })
    expect(noToken.status).toBe(404)
    const erased = await ops('/api/_ops/leads/erase', { key: 'bo.other@example.net' })
    expect(erased.json.counts).toMatchObject({ funnel_answers: 1 })
    const show = await h.ops.send('GET', '/api/_ops/leads?key=bo.other%40example.net')
    expect(show.json.erased.id).toBe(erased.json.erasureId)
  })
})
