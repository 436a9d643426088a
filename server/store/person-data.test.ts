/**
 * A person's data on request (issue 36, docs/decisions/0811) on PGlite and PostgreSQL: a person walks
 * /quiz/otc as posted forms (answers, events, consent record, the thank-you lease) and has a visitor
 * record; the export lists all of it; after the erasure neither their e-mail, phone nor name is
 * anywhere in the store (every row of every table, as text, so every JSON column too), the consent
 * proof is left without who gave it, `show` says erased, and the audit entry holds no erased value.
 */
import type { Server } from 'node:http'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANONYMOUS_ID_COOKIE, ANSWER_KEY_COOKIE } from '../../engine/constants'
import { validValue } from '../../engine/funnel/sample-values'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../../tests/fixtures/marketplace-simulator/simulator'
import { createApp } from '../app'
import { loadConfig } from '../config'
import { SnapshotStore } from '../content/snapshot-store'
import { leadStory } from './lead-store'
import { ERASED, erasePerson, personExport } from './person-data'
import { DB_KINDS, openTestStore, type TestStore } from './test-databases'
import { upsertVisitor } from './visitor-store'

const PERSON = {
  firstName: 'Zebulon',
  lastName: 'Quintavalle',
  email: 'Zeb.Quintavalle@example.org',
  phone: '(555) 867-5309',
}

describe.each(DB_KINDS)("a person's data on request on %s (decision 0811)", (kind) => {
  let store: TestStore
  let server: Server
  let port: number
  let sim: MarketplaceSimulator
  let snapshots: SnapshotStore

  beforeAll(async () => {
    store = await openTestStore(kind, 'fw_person')
    sim = await startMarketplaceSimulator()
    const config = {
      ...loadConfig({ NODE_ENV: 'development', LOG_LEVEL: 'error' }),
      mediaalphaBaseUrl: sim.url,
    }
    snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
    server = createApp({ config, snapshots, store, getPort: () => port }).listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    port = (server.address() as AddressInfo).port
  }, 120_000)

  afterAll(async () => {
    await new Promise((r) => (server ? server.close(r) : r(null)))
    await sim?.close()
    await store?.close()
  })

  function post(path: string, form: Record<string, string>, cookie: string) {
    const body = new URLSearchParams(form).toString()
    return new Promise<{ status: number; location?: string; cookies: string[] }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          headers: {
            host: `m10.localhost:${port}`,
            origin: `http://m10.localhost:${port}`,
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': 'PersonTest/1.0',
            accept: 'application/json',
            ...(cookie ? { cookie } : {}),
          },
        },
        (res) => {
          res.resume()
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              location: res.headers.location,
              cookies: res.headers['set-cookie'] ?? [],
            }),
          )
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  }

  /** Every row of every table of the store, as text: what a grep of the database would see. */
  async function everyRow(): Promise<{ table: string; text: string }[]> {
    const tables = await store.db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
    )
    const rows: { table: string; text: string }[] = []
    for (const { name } of tables.rows) {
      const r = await store.db.query<{ text: string }>(`SELECT t::text AS text FROM "${name}" t`)
      for (const row of r.rows) rows.push({ table: name, text: row.text })
    }
    return rows
  }

  const personal = (text: string) => {
    const l = text.toLowerCase()
    return (
      l.includes(PERSON.email.toLowerCase()) ||
      l.includes(PERSON.firstName.toLowerCase()) ||
      l.includes(PERSON.lastName.toLowerCase()) ||
      l.includes('867-5309') ||
      l.includes('5558675309')
    )
  }

  it('export lists everything held; erase leaves no e-mail, phone or name anywhere and keeps the consent proof', async () => {
    const funnel = snapshots.current.funnels.get('quiz-otc')!
    let path = '/quiz/otc/zip?utm_source=fb'
    let cookie = ''
    for (const step of funnel.steps) {
      const form = Object.fromEntries(
        step.fields.map((f) => [
          f.name,
          f.name in PERSON ? PERSON[f.name as keyof typeof PERSON] : String(validValue(f)),
        ]),
      )
      const a = await post(path, form, cookie)
      expect(a.status, step.name).toBe(303)
      cookie ||= a.cookies
        .map((c) => c.split(';')[0])
        .filter((c) => c.startsWith(`${ANONYMOUS_ID_COOKIE}=`) || c.startsWith(`${ANSWER_KEY_COOKIE}=`))
        .join('; ')
      path = a.location!
    }
    const anonymousId = cookie.split('; ')[0].split('=')[1]
    await upsertVisitor(
      store.db,
      {
        userId: anonymousId,
        anonymousId,
        session: { id: 'session-of-zebulon', paid: true, urlParams: { utm_source: 'fb' } },
        urlParams: { utm_source: 'fb' },
        updatedAt: Date.now(),
      },
      '203.0.113.9',
    )
    // The thank-you page's lease is recorded after the answer; wait for it.
    await expect
      .poll(async () => (await personExport(store.db, PERSON.email)).marketplaceCalls.length, {
        timeout: 20_000,
      })
      .toBeGreaterThan(0)

    const held = await personExport(store.db, PERSON.email)
    expect(held.matchedBy).toBe('email')
    expect(held.anonymousIds).toEqual([anonymousId])
    expect(held.answers.length).toBeGreaterThan(0)
    expect(JSON.stringify(held.answers)).toContain(PERSON.email)
    expect(held.events.some((e) => JSON.stringify(e.body).includes(PERSON.lastName))).toBe(true)
    expect(held.consentRecords).toHaveLength(1)
    expect(held.marketplaceCalls.some((c) => c.kind === 'get-phone')).toBe(true)
    expect(held.visitors).toHaveLength(1)
    expect(held.answerKeys.length).toBeGreaterThan(0)
    // The same person by phone (as typed or as digits) and by anonymous id.
    expect((await personExport(store.db, '555.867.5309')).anonymousIds).toEqual([anonymousId])
    expect((await personExport(store.db, anonymousId)).events.length).toBe(held.events.length)
    expect((await everyRow()).some((r) => personal(r.text))).toBe(true)

    const result = await erasePerson(store.db, PERSON.phone, 'staff-admin-1')
    expect(result.matchedBy).toBe('phone')
    expect(result.counts).toMatchObject({
      funnel_answers: held.answers.length,
      consent_records: 1,
      visitors: 1,
    })

    const left = (await everyRow()).filter((r) => personal(r.text))
    expect(left.map((r) => `${r.table}: ${r.text.slice(0, 200)}`)).toEqual([])
    // Nor their network and device details.
    expect(
      (await everyRow()).filter((r) => r.text.includes('203.0.113.9') || r.text.includes('PersonTest')),
    ).toEqual([])

    // The consent proof stays, without who gave it.
    const proof = await store.db.query<Record<string, unknown>>('SELECT * FROM consent_records')
    expect(proof.rows).toHaveLength(1)
    const c = proof.rows[0]
    expect(c).toMatchObject({
      anonymous_id: 'erased',
      session_id: 'erased',
      user_id: null,
      ip: null,
      user_agent: null,
    })
    expect(c.text_sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(c.received_at).toBeTruthy()
    expect(c.snapshot_id).toBe(held.consentRecords[0].snapshot_id)
    expect(c.page_key).toBe(held.consentRecords[0].page_key)
    expect(String(c.url)).toMatch(/^http:\/\/m10\.localhost:\d+\/quiz\/otc\/contact$/)
    expect(c.erased_at).toBeTruthy()
    // Still append-only otherwise: no second redaction, no delete.
    await expect(store.db.query("UPDATE consent_records SET text = 'x'")).rejects.toThrow(/append-only/)
    await expect(store.db.query('DELETE FROM consent_records')).rejects.toThrow(/append-only/)

    // Events keep their shape and pseudonymous ids for the reports; their answers are gone.
    const submitted = await store.db.query<{ body: { properties: { data: Record<string, string> } } }>(
      "SELECT body FROM events WHERE anonymous_id = $1 AND name = 'formStepSubmitted'",
      [anonymousId],
    )
    expect(submitted.rows.length).toBe(funnel.steps.length)
    for (const e of submitted.rows)
      for (const v of Object.values(e.body.properties.data)) expect(v).toBe(ERASED)

    // `show` says erased, by any of the keys; the audit entry has counts and no value.
    for (const key of [PERSON.email, PERSON.phone, anonymousId]) {
      const story = await leadStory(store.db, key)
      expect(story.erased?.id, key).toBe(result.erasureId)
    }
    const audit = await store.db.query<{ actor: string; target: string; details: unknown }>(
      "SELECT actor, target, details FROM audit_log WHERE action = 'lead.erase'",
    )
    expect(audit.rows).toEqual([
      {
        actor: 'staff-admin-1',
        target: result.erasureId,
        details: { matchedBy: 'phone', counts: result.counts },
      },
    ])
    // A second erasure of the same person finds nothing personal left to erase.
    expect((await erasePerson(store.db, PERSON.email, null)).matchedBy).toBeNull()
  }, 180_000)
})
