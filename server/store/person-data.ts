/**
 * A person's data on request (issue 36, docs/decisions/0811): everything the store holds about the
 * person an e-mail address, a phone number or an anonymous (or session, or user) id leads to, and its
 * erasure. `personExport` reads; `erasePerson` deletes the answers, the answer keys and the visitor
 * records, and irreversibly redacts the personal fields of the events, consent records and
 * marketplace calls, keeping each consent record's proof (text, hash, version, time, page, revision).
 * An erasure is remembered by the SHA-256 of the keys it covered (lead_erasures) and audited with
 * counts only, never a value.
 */
import { randomUUID } from 'node:crypto'
import type { LeadErasure, LeadExport } from '../../schemas/generated/cc-answers/leads'
import { audit } from './auth-store'
import type { Db, Queryable } from './db'
import { EVENT_COLUMNS } from './event-rows'
import { EMAIL, erasureKeyHash, erasureOf, phoneDigits } from './lead-keys'

/** What a redacted value reads as. */
export const ERASED = '[erased]'

/** Answer fields whose values identify a person (by name); values that look like e-mails or phones count too. */
const PERSONAL_FIELD =
  /name|nombre|email|correo|phone|tel[eé]fono|address|direcci[oó]n|street|city|birth|dob|ssn/i
/** Keys of JSON objects that hold the visitor's device and network details: redacted wherever they are. */
const DEVICE_KEYS = new Set(['ip', 'userAgent', 'user_agent', 'cookie'])

/** Every record held about a person (the control center's answer type, schemas/cc-answers/leads.schema.json). */
export type PersonRecords = LeadExport
export type PersonMatch = LeadExport['matchedBy']
/** What an erasure did. */
export type ErasureResult = LeadErasure

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v)
const rowOut = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, iso(v)]))

/** The anonymous ids a key leads to, and how it was read. */
async function anonymousIdsOf(
  db: Queryable,
  key: string,
): Promise<{ matchedBy: PersonMatch; ids: string[] }> {
  const k = key.trim()
  const email = EMAIL.test(k) ? k.toLowerCase() : null
  const digits = email ? null : phoneDigits(k)
  const ids = new Set<string>()
  if (email || digits) {
    // A value of any answer (kept answers, or the data of a submitted step) equal to the key.
    const match = email
      ? 'lower(kv.value) = $1'
      : "regexp_replace(kv.value, '[^0-9]', '', 'g') IN ($1, '1' || $1)"
    const value = email ?? digits
    const answers = await db.query<{ anonymous_id: string }>(
      `SELECT DISTINCT anonymous_id FROM funnel_answers a
       WHERE jsonb_typeof(a.answers) = 'object' AND EXISTS (SELECT 1 FROM jsonb_each_text(a.answers) kv WHERE ${match})`,
      [value],
    )
    const events = await db.query<{ anonymous_id: string }>(
      `SELECT DISTINCT anonymous_id FROM events e
       WHERE jsonb_typeof(e.body #> '{properties,data}') = 'object'
         AND EXISTS (SELECT 1 FROM jsonb_each_text(e.body #> '{properties,data}') kv WHERE ${match})`,
      [value],
    )
    for (const r of [...answers.rows, ...events.rows]) ids.add(r.anonymous_id)
    return { matchedBy: ids.size ? (email ? 'email' : 'phone') : null, ids: [...ids] }
  }
  const found = await db.query<{ anonymous_id: string }>(
    `SELECT anonymous_id FROM events WHERE anonymous_id = $1 OR user_id = $1 OR session_id = $1
     UNION SELECT anonymous_id FROM funnel_answers WHERE anonymous_id = $1
     UNION SELECT anonymous_id FROM funnel_answer_keys WHERE anonymous_id = $1
     UNION SELECT anonymous_id FROM visitors WHERE anonymous_id = $1 OR user_id = $1
     UNION SELECT anonymous_id FROM consent_records WHERE anonymous_id = $1 OR session_id = $1 OR user_id = $1`,
    [k],
  )
  for (const r of found.rows) if (r.anonymous_id !== 'erased') ids.add(r.anonymous_id)
  return { matchedBy: ids.size ? 'id' : null, ids: [...ids] }
}

/** Every record held about the person a key leads to (npm run leads -- export). */
export async function personExport(db: Queryable, key: string): Promise<PersonRecords> {
  const { matchedBy, ids } = await anonymousIdsOf(db, key)
  const erased = await erasureOf(db, key)
  const answers = await db.query<Record<string, unknown>>(
    'SELECT anonymous_id, bucket, answers, updated_at FROM funnel_answers WHERE anonymous_id = ANY($1::text[]) ORDER BY anonymous_id, bucket',
    [ids],
  )
  const answerKeys = await db.query<Record<string, unknown>>(
    'SELECT anonymous_id, created_at FROM funnel_answer_keys WHERE anonymous_id = ANY($1::text[]) ORDER BY created_at',
    [ids],
  )
  const events = await db.query<Record<string, unknown>>(
    `SELECT ${EVENT_COLUMNS} FROM events WHERE anonymous_id = ANY($1::text[]) ORDER BY client_ts, id`,
    [ids],
  )
  const sessionIds = [...new Set(events.rows.map((e) => String(e.session_id)))]
  const userIds = [
    ...new Set(events.rows.map((e) => e.user_id).filter((u): u is string => typeof u === 'string')),
  ]
  const visitors = await db.query<Record<string, unknown>>(
    'SELECT * FROM visitors WHERE anonymous_id = ANY($1::text[]) OR user_id = ANY($2::text[]) ORDER BY first_seen_at',
    [ids, [...ids, ...userIds]],
  )
  for (const v of visitors.rows)
    if (typeof v.user_id === 'string' && !userIds.includes(v.user_id)) userIds.push(v.user_id)
  const consent = await db.query<Record<string, unknown>>(
    'SELECT * FROM consent_records WHERE anonymous_id = ANY($1::text[]) OR session_id = ANY($2::text[]) ORDER BY received_at, id',
    [ids, sessionIds],
  )
  for (const c of consent.rows)
    if (typeof c.session_id === 'string' && !sessionIds.includes(c.session_id)) sessionIds.push(c.session_id)
  const calls = await db.query<Record<string, unknown>>(
    'SELECT * FROM marketplace_calls WHERE user_id = ANY($1::text[]) OR session_id = ANY($2::text[]) ORDER BY at, id',
    [[...ids, ...userIds], sessionIds],
  )
  return {
    key,
    matchedBy,
    erased,
    anonymousIds: ids,
    sessionIds,
    userIds,
    answers: answers.rows.map(rowOut) as PersonRecords['answers'],
    answerKeys: answerKeys.rows.map(rowOut) as PersonRecords['answerKeys'],
    visitors: visitors.rows.map(rowOut),
    events: events.rows.map(rowOut),
    consentRecords: consent.rows.map(rowOut),
    marketplaceCalls: calls.rows.map(rowOut),
  }
}

/** The values that identify the person: the key itself and every personal answer they gave. */
function personalValues(key: string, records: PersonRecords): string[] {
  const values = new Set<string>()
  const k = key.trim()
  if (EMAIL.test(k) || phoneDigits(k)) values.add(k)
  const take = (data: unknown) => {
    if (!data || typeof data !== 'object' || Array.isArray(data)) return
    for (const [name, v] of Object.entries(data as Record<string, unknown>)) {
      if (typeof v !== 'string' || v.trim().length < 2) continue
      if (PERSONAL_FIELD.test(name) || EMAIL.test(v.trim()) || phoneDigits(v)) values.add(v.trim())
    }
  }
  for (const a of records.answers) take(a.answers)
  for (const e of records.events) take((e.body as { properties?: { data?: unknown } }).properties?.data)
  return [...values]
}

/**
 * A redactor of JSON values: a string holding a personal value (a short one only when it is the whole
 * string) becomes ERASED, as does every device detail (DEVICE_KEYS) and every answer of a step.
 */
function redactor(values: string[]) {
  const lower = values.map((v) => v.toLowerCase())
  const digits = values.map((v) => phoneDigits(v)).filter((d): d is string => !!d)
  const hit = (s: string) => {
    const l = s.toLowerCase()
    if (lower.some((v) => l === v || (v.length >= 3 && l.includes(v)))) return true
    const d = s.replace(/\D/g, '')
    return d.length >= 10 && digits.some((p) => d.includes(p))
  }
  const redact = (v: unknown, name = ''): unknown => {
    if (DEVICE_KEYS.has(name) && v !== null) return ERASED
    if (typeof v === 'string') return hit(v) ? ERASED : v
    if (Array.isArray(v)) return v.map((x) => redact(x))
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v as Record<string, unknown>).map(([k, x]) => [
          k,
          // Every answer of a submitted step goes, whatever it was: only the field names stay.
          k === 'data' && x && typeof x === 'object' && !Array.isArray(x)
            ? Object.fromEntries(Object.keys(x).map((f) => [f, ERASED]))
            : redact(x, k),
        ]),
      )
    return v
  }
  return redact
}

/**
 * Erases the person a key leads to, in one transaction (npm run leads -- erase, the control center's
 * Leads screen). Returns what was done; nothing is done when the key leads to nobody.
 */
export async function erasePerson(db: Db, key: string, actor: string | null): Promise<ErasureResult> {
  return db.transaction(async (tx) => {
    const records = await personExport(tx, key)
    if (!records.matchedBy) return { key, matchedBy: null, erasureId: null, counts: {} }
    const ids = records.anonymousIds
    const people = [...new Set([...ids, ...records.userIds])]
    const values = personalValues(key, records)
    const redact = redactor(values)
    const counts: Record<string, number> = {}
    const count = async (name: string, sql: string, params: unknown[]) => {
      const r = await tx.query<{ n: number }>(
        `WITH d AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM d`,
        params,
      )
      counts[name] = r.rows[0]?.n ?? 0
    }
    await count('funnel_answers', 'DELETE FROM funnel_answers WHERE anonymous_id = ANY($1::text[])', [ids])
    await count('funnel_answer_keys', 'DELETE FROM funnel_answer_keys WHERE anonymous_id = ANY($1::text[])', [
      ids,
    ])
    await count(
      'visitors',
      'DELETE FROM visitors WHERE anonymous_id = ANY($1::text[]) OR user_id = ANY($2::text[])',
      [ids, people],
    )
    // Events keep their pseudonymous ids (the rollups count by them); their personal fields go.
    for (const e of records.events)
      await tx.query('UPDATE events SET body = $3::jsonb, ip = NULL WHERE id = $1 AND client_ts = $2', [
        e.id,
        e.client_ts,
        JSON.stringify(redact(e.body)),
      ])
    counts.events = records.events.length
    // The consent proof stays (text, hash, version, time, page, revision); who gave it does not.
    const now = new Date().toISOString()
    for (const c of records.consentRecords) {
      if (c.erased_at) continue
      const url = new URL(String(c.url), 'http://erased.invalid')
      await tx.query(
        `UPDATE consent_records SET session_id = 'erased', anonymous_id = 'erased', user_id = NULL, ip = NULL,
           user_agent = NULL, url = $2, experiment = $3::jsonb, body = $4::jsonb, erased_at = $5 WHERE id = $1`,
        [
          c.id,
          `${url.origin}${url.pathname}`,
          c.experiment === null ? null : JSON.stringify(redact(c.experiment)),
          JSON.stringify({ erased: true, version: c.version, textSha256: c.text_sha256 }),
          now,
        ],
      )
    }
    counts.consent_records = records.consentRecords.length
    for (const m of records.marketplaceCalls)
      await tx.query(
        'UPDATE marketplace_calls SET user_id = NULL, session_id = NULL, page_url = NULL, answer = $2::jsonb WHERE id = $1',
        [m.id, m.answer === null || m.answer === undefined ? null : JSON.stringify(redact(m.answer))],
      )
    counts.marketplace_calls = records.marketplaceCalls.length
    const erasureId = randomUUID()
    // Every e-mail and phone they gave is a key that now answers "erased", as are their ids.
    const contacts = values.filter((v) => EMAIL.test(v) || phoneDigits(v))
    const hashes = [...new Set([key, ...contacts, ...people, ...records.sessionIds].map(erasureKeyHash))]
    await tx.query(
      'INSERT INTO lead_erasures (id, actor, key_hashes, counts) VALUES ($1, $2, $3::text[], $4::jsonb)',
      [erasureId, actor, hashes, JSON.stringify(counts)],
    )
    await audit(tx, {
      actor,
      action: 'lead.erase',
      target: erasureId,
      details: { matchedBy: records.matchedBy, counts },
    })
    return { key, matchedBy: records.matchedBy, erasureId, counts }
  })
}
