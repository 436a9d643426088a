import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mergeJsonText } from '../../../engine/control-center/content/merge-json-text'
import { type CcHarness, startCcHarness } from './cc-test-harness'
import { CC_PRESENCE_EXPIRY_MS } from './presence'

const PAGE = 'definitions/pages/dental-vision.json'

/** Two editors on one branch (CONTROL-CENTER §2.5 A, §8 Issue 2 step 7): presence, silent merge, 409. */
describe('presence and same-branch conflicts API', { timeout: 90_000 }, () => {
  let h: CcHarness<'dana' | 'sam'>
  beforeAll(async () => {
    h = await startCcHarness({
      prefix: 'fw-cc-presence-',
      staff: { dana: { name: 'Dana', role: 'editor' }, sam: { name: 'Sam', role: 'editor' } },
    })
  }, 120_000)
  afterAll(() => h?.close(), 60_000)
  const call = (who: 'dana' | 'sam', method: string, path: string, body?: unknown) =>
    h.call(who, method, path, body)

  const file = async (who: 'dana' | 'sam', branch: string) =>
    (await call(who, 'GET', `/api/cc/branches/${branch}/file?path=${PAGE}`)).json
  /** `who` edits `fields` of the page on the branch's current head and saves the draft. */
  async function edit(who: 'dana' | 'sam', branch: string, fields: Record<string, string>) {
    const f = await file(who, branch)
    const doc = { ...JSON.parse(f.text), ...fields }
    const put = await call(who, 'PUT', `/api/cc/branches/${branch}/drafts?path=${PAGE}`, {
      text: `${JSON.stringify(doc, null, 2)}\n`,
    })
    expect(put.status).toBe(200)
    return f.head as string
  }
  const commit = (who: 'dana' | 'sam', branch: string, expectedHead: string, message: string) =>
    call(who, 'POST', `/api/cc/branches/${branch}/commits`, { message, expectedHead, paths: [PAGE] })

  it('names the others editing the same file on the same branch, and forgets them when they leave', async () => {
    expect(
      (await call('dana', 'POST', '/api/cc/branches', { title: 'Together', name: 'together' })).status,
    ).toBe(201)
    const dana = await call('dana', 'PUT', '/api/cc/branches/together/presence', { path: PAGE })
    expect(dana.status).toBe(200)
    expect(dana.json).toMatchObject({ branch: 'together', path: PAGE, others: [] })
    expect(dana.json.heartbeatMs).toBeLessThan(dana.json.expiresMs)
    expect(dana.json.expiresMs).toBe(CC_PRESENCE_EXPIRY_MS)

    const sam = await call('sam', 'PUT', '/api/cc/branches/together/presence', { path: PAGE })
    expect(sam.json.others).toEqual([{ id: h.staff.dana.id, name: 'Dana', since: expect.any(String) }])
    const seen = await call('dana', 'GET', `/api/cc/branches/together/presence?path=${PAGE}`)
    expect(seen.json.others.map((o: { name: string }) => o.name)).toEqual(['Sam'])
    // Another file, or another branch: nobody.
    const other = await call(
      'dana',
      'GET',
      '/api/cc/branches/together/presence?path=definitions/pages/ads.json',
    )
    expect(other.json.others).toEqual([])

    // A heartbeat keeps `since`; an expired row is nobody, and its next heartbeat starts again.
    const since = sam.json.others[0].since
    await call('dana', 'PUT', '/api/cc/branches/together/presence', { path: PAGE })
    expect(
      (await call('sam', 'GET', `/api/cc/branches/together/presence?path=${PAGE}`)).json.others[0].since,
    ).toBe(since)
    await h.store.db.query(`UPDATE cc_presence SET seen_at = now() - interval '1 hour' WHERE user_id = $1`, [
      h.staff.dana.id,
    ])
    expect((await call('sam', 'GET', `/api/cc/branches/together/presence?path=${PAGE}`)).json.others).toEqual(
      [],
    )
    await call('dana', 'PUT', '/api/cc/branches/together/presence', { path: PAGE })
    const again = (await call('sam', 'GET', `/api/cc/branches/together/presence?path=${PAGE}`)).json.others
    expect(Date.parse(again[0].since)).toBeGreaterThan(Date.parse(since))

    const left = await call('dana', 'DELETE', `/api/cc/branches/together/presence?path=${PAGE}`)
    expect(left.status).toBe(200)
    expect((await call('sam', 'GET', `/api/cc/branches/together/presence?path=${PAGE}`)).json.others).toEqual(
      [],
    )
  })

  it('answers bad presence requests with a 4xx naming what is wrong', async () => {
    const live = await call('dana', 'PUT', '/api/cc/branches/live/presence', { path: PAGE })
    expect(live.status).toBe(400)
    expect(live.json.error).toMatch(/live is read-only/)
    const unknown = await call('dana', 'PUT', '/api/cc/branches/nope/presence', { path: PAGE })
    expect(unknown.status).toBe(404)
    const noPath = await call('dana', 'PUT', '/api/cc/branches/together/presence', {})
    expect(noPath.status).toBe(400)
    expect(noPath.json.error).toMatch(/path/)
    const outside = await call('dana', 'PUT', '/api/cc/branches/together/presence', { path: '../etc/passwd' })
    expect(outside.status).toBe(400)
    const query = await call('dana', 'GET', '/api/cc/branches/together/presence')
    expect(query.status).toBe(400)
    expect(query.json.error).toBe('?path: is required')
  })

  it('different fields: the second commit merges silently and the file has both changes', async () => {
    expect(
      (await call('dana', 'POST', '/api/cc/branches', { title: 'Merge', name: 'merge-fields' })).status,
    ).toBe(201)
    const danaHead = await edit('dana', 'merge-fields', { headline: 'Dana headline' })
    const samHead = await edit('sam', 'merge-fields', { subheadline: 'Sam subheadline' })
    expect(samHead).toBe(danaHead)
    const first = await commit('dana', 'merge-fields', danaHead, 'Headline')
    expect(first.status).toBe(201)
    const second = await commit('sam', 'merge-fields', samHead, 'Subheadline')
    expect(second.status).toBe(201)
    expect(second.json).toMatchObject({ parent: first.json.commit, merged: [PAGE] })
    const doc = JSON.parse((await file('dana', 'merge-fields')).text)
    expect(doc).toMatchObject({ headline: 'Dana headline', subheadline: 'Sam subheadline' })
  })

  it('a stale editor: a first save on an older head keeps that head as its base, so nothing is undone', async () => {
    expect((await call('dana', 'POST', '/api/cc/branches', { title: 'Stale', name: 'stale' })).status).toBe(
      201,
    )
    const opened = await file('sam', 'stale')
    const danaHead = await edit('dana', 'stale', { headline: 'Dana first' })
    expect((await commit('dana', 'stale', danaHead, 'Headline')).status).toBe(201)
    // Sam opened the page before Dana's commit and only now types: his text lacks her headline.
    const text = `${JSON.stringify({ ...JSON.parse(opened.text), product: 'Sam product' }, null, 2)}\n`
    const put = await call('sam', 'PUT', `/api/cc/branches/stale/drafts?path=${PAGE}`, {
      text,
      base: opened.head,
    })
    expect(put.status).toBe(200)
    const done = await commit('sam', 'stale', opened.head, 'Product')
    expect(done.status).toBe(201)
    expect(done.json.merged).toEqual([PAGE])
    expect(JSON.parse((await file('sam', 'stale')).text)).toMatchObject({
      headline: 'Dana first',
      product: 'Sam product',
    })
  })

  it('a reloaded editor: committing on the new head still merges a draft written on the old one', async () => {
    expect((await call('dana', 'POST', '/api/cc/branches', { title: 'Reload', name: 'reload' })).status).toBe(
      201,
    )
    const head = await edit('sam', 'reload', { product: 'Sam product' })
    await edit('dana', 'reload', { headline: 'Dana again' })
    const first = await commit('dana', 'reload', head, 'Headline')
    // Sam's editor reloaded and shows the new head with his draft: it commits with that head.
    const done = await commit('sam', 'reload', first.json.commit, 'Product')
    expect(done.status).toBe(201)
    expect(done.json.merged).toEqual([PAGE])
    expect(JSON.parse((await file('sam', 'reload')).text)).toMatchObject({
      headline: 'Dana again',
      product: 'Sam product',
    })
  })

  it('the same field: 409 with base, theirs and mine; the merge dialog resolution commits on the new head', async () => {
    expect(
      (await call('dana', 'POST', '/api/cc/branches', { title: 'Clash', name: 'same-field' })).status,
    ).toBe(201)
    const original = JSON.parse((await file('dana', 'same-field')).text)
    const head = await edit('dana', 'same-field', { headline: 'Dana says' })
    await edit('sam', 'same-field', { headline: 'Sam says', product: 'Sam product' })
    const first = await commit('dana', 'same-field', head, 'Dana headline')
    expect(first.status).toBe(201)
    const clash = await commit('sam', 'same-field', head, 'Sam headline')
    expect(clash.status).toBe(409)
    expect(clash.json.error).toMatch(/conflict: .*definitions\/pages\/dental-vision.json \/headline/)
    expect(clash.json.head).toBe(first.json.commit)
    expect(clash.json.conflicts).toEqual([
      {
        path: PAGE,
        texts: { base: expect.any(String), theirs: expect.any(String), mine: expect.any(String) },
        conflicts: [{ pointer: '/headline', base: original.headline, theirs: 'Dana says', mine: 'Sam says' }],
      },
    ])
    // Sam's draft survives the refusal.
    expect(JSON.parse((await file('sam', 'same-field')).draft.text).headline).toBe('Sam says')

    // The merge dialog: Sam keeps his headline, writes it on the new head and commits with it.
    const { texts } = clash.json.conflicts[0]
    const resolved = mergeJsonText(texts.base, texts.theirs, texts.mine, (c) => c.mine)
    if (!resolved.ok) throw new Error('the resolution did not settle every conflict')
    const put = await call('sam', 'PUT', `/api/cc/branches/same-field/drafts?path=${PAGE}`, {
      text: resolved.text,
      base: clash.json.head,
    })
    expect(put.status).toBe(200)
    const done = await commit('sam', 'same-field', clash.json.head, 'Sam headline, merged')
    expect(done.status).toBe(201)
    expect(done.json.merged).toEqual([])
    const doc = JSON.parse((await file('sam', 'same-field')).text)
    expect(doc).toMatchObject({ headline: 'Sam says', product: 'Sam product' })

    // A base that is not a commit of the branch is refused.
    const bad = await call('sam', 'PUT', `/api/cc/branches/same-field/drafts?path=${PAGE}`, {
      text: resolved.text,
      base: 'f'.repeat(40),
    })
    expect(bad.status).toBe(400)
    expect(bad.json.error).toMatch(/^\/base: f+ is not a commit of branch "same-field"/)
  })
})
