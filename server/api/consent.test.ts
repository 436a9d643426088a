import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fillConsent } from '../../engine/consent/consent-text'
import { buildSnapshot } from '../../engine/snapshot/build-snapshot'
import type { Snapshot } from '../../engine/snapshot/types'
import { createApp } from '../app'
import { loadConfig } from '../config'
import { sha256Hex } from '../consent/consent-versions'
import { sampleConsentRecord } from '../consent/sample-consent'
import { publicAssetExists, readDefinitionFiles } from '../content/read-definitions'
import { SnapshotStore } from '../content/snapshot-store'
import { consentRecordsOf } from '../store/consent-store'
import { openStore, type Store } from '../store/open-store'
import { DB_KINDS, dropPostgresSchema, uniquePostgresUrl } from '../store/test-databases'

describe.each(DB_KINDS)('consent records on %s', (kind) => {
  let store: Store
  let server: Server
  let base: string
  let schema: string | undefined
  let snapshots: SnapshotStore
  let root: string

  beforeAll(async () => {
    const pgUrl = kind === 'postgres' ? uniquePostgresUrl() : null
    schema = pgUrl?.schema
    store = await openStore({ databaseUrl: pgUrl?.url ?? null, dataDir: null })
    const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error' })
    root = config.projectRoot
    snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
    const app = createApp({ config: { ...config, trustedProxies: ['127.0.0.1'] }, snapshots, store })
    server = app.listen(0, '127.0.0.1')
    await new Promise((r) => server.once('listening', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }, 60_000)

  afterAll(async () => {
    await new Promise((r) => (server ? server.close(r) : r(null)))
    await store?.close()
    if (schema) await dropPostgresSchema(schema)
  })

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(`${base}/api/consent/create`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    })
    return { status: r.status, body: (await r.json()) as { error?: string; accepted?: number } }
  }
  /** The repository's definitions with the English Medicare consent text edited. */
  const editedSnapshot = (from: string, to: string): Snapshot => {
    const files = readDefinitionFiles(`${root}/definitions`, root).map((f) =>
      f.path.endsWith('consent/tcpa-medicare.json') ? { ...f, text: f.text.replace(from, to) } : f,
    )
    const built = buildSnapshot(files, { root: 'definitions', assetExists: publicAssetExists(root) })
    if (!built.ok) throw new Error(JSON.stringify(built.errors))
    return built.snapshot
  }
  const recordsOf = (sessionId: string) =>
    consentRecordsOf(store.db, { sessions: [sessionId], anonymous: [] })

  it('stores a record with server time, the client IP by the trusted-proxy rule and the user agent, once per id', async () => {
    const record = { ...sampleConsentRecord(snapshots.current), sessionId: `s-${randomUUID()}` }
    const before = Date.now()
    const headers = { 'x-forwarded-for': '203.0.113.7', 'user-agent': 'ConsentTest/1.0' }
    expect(await post(record, headers)).toEqual({ status: 200, body: { ok: true, accepted: 1 } })
    expect((await post(record, headers)).status).toBe(200)
    const rows = await recordsOf(record.sessionId)
    expect(rows).toHaveLength(1)
    const row = rows[0]
    expect(row.ip).toBe('203.0.113.7')
    expect(row.user_agent).toBe('ConsentTest/1.0')
    expect(Date.parse(row.received_at)).toBeGreaterThanOrEqual(before - 1000)
    expect(row.text).toBe(record.consent.text)
    expect(row.text_sha256).toBe(sha256Hex(row.text))
    expect(row.seller).toBe(snapshots.current.brands.get('m10')!.ownerLegalName)
    expect(row.snapshot_id).toBe(snapshots.current.id)
    expect(row.fields).toEqual(record.fields)
    expect(row.body).toEqual(record)
  })

  it('refuses a text the server never served, a wrong hash, an unknown version and a wrong seller, naming the field', async () => {
    const good = sampleConsentRecord(snapshots.current)
    const forged = good.consent.text.replace('Consent is not a condition', 'Consent is a condition')
    const cases: [unknown, string][] = [
      [{ ...good, consent: { ...good.consent, text: forged, sha256: sha256Hex(forged) } }, '/consent/text'],
      [{ ...good, consent: { ...good.consent, sha256: sha256Hex('other') } }, '/consent/sha256'],
      [
        { ...good, consent: { ...good.consent, version: 'tcpa-medicare@0123456789abcdef' } },
        '/consent/version',
      ],
      [{ ...good, consent: { ...good.consent, seller: 'Someone Else LLC' } }, '/consent/seller'],
      [{ ...good, brand: 'zz' }, '/brand'],
    ]
    for (const [body, field] of cases) {
      const r = await post(body)
      expect(r.status, JSON.stringify(r.body)).toBe(422)
      expect(r.body.error).toContain(field)
    }
    const elsewhere = await post(good, { 'x-forwarded-host': 'tqg.localhost' })
    expect(elsewhere.status).toBe(422)
    expect(elsewhere.body.error).toBe('/brand: "m10" was posted to the site of brand "tqg"')
    expect((await post({ ...good, id: randomUUID() }, { 'x-forwarded-host': 'm10.localhost' })).status).toBe(
      200,
    )
    const bad = await post({ ...good, stepNumber: 'two' })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toContain('/stepNumber')
    const missing = await post({ ...good, url: undefined })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toContain('url')
  })

  it('keeps records append-only: the database refuses to change or remove one', async () => {
    const record = { ...sampleConsentRecord(snapshots.current), sessionId: `s-${randomUUID()}` }
    expect((await post(record)).status).toBe(200)
    await expect(
      store.db.query('UPDATE consent_records SET text = $1 WHERE id = $2', ['edited', record.id]),
    ).rejects.toThrow(/append-only/)
    await expect(store.db.query('DELETE FROM consent_records WHERE id = $1', [record.id])).rejects.toThrow(
      /append-only/,
    )
    expect((await recordsOf(record.sessionId))[0].text).toBe(record.consent.text)
  })

  it('a changed consent text is a new version; records made before keep the old text, and the old version stays accepted', async () => {
    const before = snapshots.current
    const old = { ...sampleConsentRecord(before), sessionId: `s-${randomUUID()}` }
    expect((await post(old)).status).toBe(200)
    const after = editedSnapshot('Message and data rates may apply.', 'Message and data rates apply.')
    snapshots.swap(after)
    try {
      const fresh = { ...sampleConsentRecord(after), sessionId: old.sessionId }
      expect(fresh.consent.version).not.toBe(old.consent.version)
      expect(fresh.consent.text).toContain('Message and data rates apply.')
      expect((await post(fresh)).status).toBe(200)
      // A visitor whose page was rendered before the change submits after it.
      const late = { ...sampleConsentRecord(before), sessionId: old.sessionId }
      expect((await post(late)).status).toBe(200)
      const rows = await recordsOf(old.sessionId)
      expect(rows.map((r) => r.version)).toEqual([
        old.consent.version,
        fresh.consent.version,
        old.consent.version,
      ])
      expect(rows[0].text).toBe(old.consent.text)
      expect(rows[0].text).toBe(
        fillConsent(before.documents.consent.get('tcpa-medicare')!.text, {
          sellerLegalName: rows[0].seller,
          buttonLabel: rows[0].button_label,
        }),
      )
      expect(rows[1].text).toBe(fresh.consent.text)
    } finally {
      snapshots.swap(before)
    }
  })

  it('after a restart on the same store, a version an earlier server served is still accepted, one never served is not', async () => {
    const served = sampleConsentRecord(snapshots.current)
    const unseen = editedSnapshot('Consent is not a condition', 'Agreeing is not a condition')
    const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'error' })
    // A new server that only ever loaded another snapshot: it learns the first server's versions from the store.
    const other = editedSnapshot('Message and data rates may apply.', 'Standard message rates may apply.')
    const restarted = createApp({
      config,
      snapshots: SnapshotStore.of(other, config.definitionsDir, config.projectRoot),
      store,
    }).listen(0, '127.0.0.1')
    await new Promise((r) => restarted.once('listening', r))
    try {
      const url = `http://127.0.0.1:${(restarted.address() as AddressInfo).port}/api/consent/create`
      const send = async (body: unknown) => {
        const r = await fetch(url, {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        })
        return { status: r.status, error: ((await r.json()) as { error?: string }).error }
      }
      expect((await send({ ...served, id: randomUUID() })).status).toBe(200)
      const never = await send(sampleConsentRecord(unseen))
      expect(never.status).toBe(422)
      expect(never.error).toMatch(
        /^\/consent\/version: "tcpa-medicare@[0-9a-f]{16}" is not a consent text this server has served/,
      )
    } finally {
      await new Promise((r) => restarted.close(r))
    }
  })
})
