/**
 * One lead's story (npm run leads -- show): the events, consent records and marketplace calls of a
 * visitor found by session id, anonymous or user id, or the phone number they typed, in time order,
 * with the content revision each page was rendered from (docs/decisions/0800).
 */
import { THANK_YOU_PHONE } from '../../engine/funnel/funnel-deps'
import { type ConsentRecordRow, commitOfSnapshot, consentRecordsOf } from './consent-store'
import type { Queryable } from './db'
import { EVENT_COLUMNS } from './event-rows'
import type { StoredEvent } from './event-store'
import { erasureOf, phoneDigits } from './lead-keys'

/** One row of marketplace_calls. */
export interface MarketplaceCallRow {
  kind: 'demand-check' | 'get-phone'
  user_id: string | null
  session_id: string | null
  page_url: string | null
  ok: boolean
  status: number | null
  phone?: string | null
  expires_at?: string | null
  answer?: unknown
}

export async function recordMarketplaceCall(db: Queryable, row: MarketplaceCallRow): Promise<void> {
  await db.query(
    `INSERT INTO marketplace_calls (kind, user_id, session_id, page_url, ok, status, phone, expires_at, answer)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
    [
      row.kind,
      row.user_id,
      row.session_id,
      row.page_url,
      row.ok,
      row.status,
      row.phone ?? null,
      row.expires_at ?? null,
      row.answer === undefined ? null : JSON.stringify(row.answer),
    ],
  )
}

export type LeadEntry =
  | { at: string; kind: 'event'; event: StoredEvent }
  | { at: string; kind: 'consent'; record: ConsentRecordRow }
  | { at: string; kind: 'marketplace'; call: MarketplaceCallRow & { at: string } }

export interface LeadStory {
  key: string
  /** How the key was found: a session id, an anonymous or user id, or a phone number typed in a form. */
  matchedBy: 'session' | 'visitor' | 'phone' | null
  sessionIds: string[]
  anonymousIds: string[]
  userIds: string[]
  /** When an erasure covered this key (docs/decisions/0811): what is left holds no personal data. */
  erased?: { id: string; at: string } | null
  /** Content revisions the pages were rendered from, with the published commit when known. */
  revisions: { snapshotId: string; commit: string | null }[]
  entries: LeadEntry[]
  /**
   * The number the visitor was shown last (docs/decisions/0231): what a thank-you page rendered by the
   * server recorded (`thankYouPhone`: leased, the rule's default, or none), or a lease the browser made
   * after it (it shows what it leases); null when neither is recorded.
   */
  numberShown: { number: string | null; source: 'leased' | 'default' | 'none'; at: string } | null
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v))

/** The stored order of an event (migration 0019): breaks ties between events of one millisecond. */
const SEQ = new WeakMap<StoredEvent, bigint>()

function eventOf(row: Record<string, unknown>): StoredEvent {
  const { seq, ...rest } = row
  const event = {
    ...(rest as unknown as StoredEvent),
    client_ts: iso(row.client_ts),
    received_at: iso(row.received_at),
  }
  SEQ.set(event, BigInt(String(seq ?? 0)))
  return event
}

/** Events in the order they happened: time, then the order they were stored in (never their random ids). */
function byTimeThenSeq(a: StoredEvent, b: StoredEvent): number {
  const t = a.client_ts.localeCompare(b.client_ts)
  if (t) return t
  const x = SEQ.get(a) ?? 0n
  const y = SEQ.get(b) ?? 0n
  return x < y ? -1 : x > y ? 1 : 0
}

export async function leadStory(db: Queryable, key: string): Promise<LeadStory> {
  const story = await leadStoryOf(db, key)
  const erased = await erasureOf(db, key)
  return erased ? { ...story, erased } : story
}

async function leadStoryOf(db: Queryable, key: string): Promise<LeadStory> {
  const empty: LeadStory = {
    key,
    matchedBy: null,
    sessionIds: [],
    anonymousIds: [],
    userIds: [],
    revisions: [],
    entries: [],
    numberShown: null,
  }
  let events: StoredEvent[]
  let matchedBy: LeadStory['matchedBy']
  const bySession = await db.query<Record<string, unknown>>(
    `SELECT ${EVENT_COLUMNS}, seq FROM events WHERE session_id = $1`,
    [key],
  )
  if (bySession.rows.length) {
    matchedBy = 'session'
    events = bySession.rows.map(eventOf)
  } else {
    const digits = phoneDigits(key)
    const visitors = digits
      ? await db.query<{ anonymous_id: string }>(
          `SELECT DISTINCT anonymous_id FROM events
           WHERE type = 'track' AND name = 'formStepSubmitted'
             AND regexp_replace(coalesce(body #>> '{properties,data,phone}', ''), '[^0-9]', '', 'g') IN ($1, '1' || $1)`,
          [digits],
        )
      : await db.query<{ anonymous_id: string }>(
          'SELECT DISTINCT anonymous_id FROM events WHERE anonymous_id = $1 OR user_id = $1',
          [key],
        )
    if (!visitors.rows.length) return empty
    matchedBy = digits ? 'phone' : 'visitor'
    const r = await db.query<Record<string, unknown>>(
      `SELECT ${EVENT_COLUMNS}, seq FROM events WHERE anonymous_id = ANY($1::text[])`,
      [visitors.rows.map((v) => v.anonymous_id)],
    )
    events = r.rows.map(eventOf)
  }
  events.sort(byTimeThenSeq)
  const sessionIds = [...new Set(events.map((e) => e.session_id))]
  const anonymousIds = [...new Set(events.map((e) => e.anonymous_id))]
  const userIds = [...new Set(events.map((e) => e.user_id).filter((u): u is string => !!u))]
  const consent = await consentRecordsOf(db, {
    sessions: sessionIds,
    anonymous: matchedBy === 'session' ? [] : anonymousIds,
  })
  const calls = await db.query<Record<string, unknown>>(
    matchedBy === 'session'
      ? 'SELECT * FROM marketplace_calls WHERE session_id = ANY($1::text[]) ORDER BY at, id'
      : 'SELECT * FROM marketplace_calls WHERE session_id = ANY($1::text[]) OR user_id = ANY($2::text[]) ORDER BY at, id',
    matchedBy === 'session' ? [sessionIds] : [sessionIds, userIds],
  )
  const entries: LeadEntry[] = [
    ...events.map((event) => ({ at: event.client_ts, kind: 'event' as const, event })),
    ...consent.map((record) => ({ at: record.received_at, kind: 'consent' as const, record })),
    ...calls.rows.map((row) => {
      const call = {
        ...(row as unknown as MarketplaceCallRow),
        at: iso(row.at),
        expires_at: row.expires_at ? iso(row.expires_at) : null,
      }
      return { at: call.at, kind: 'marketplace' as const, call }
    }),
  ].sort((a, b) => a.at.localeCompare(b.at))
  const snapshotIds = new Set<string>()
  for (const e of events) {
    const rev = (e.body.properties as { revision?: unknown }).revision
    if (typeof rev === 'string') snapshotIds.add(rev)
  }
  for (const c of consent) snapshotIds.add(c.snapshot_id)
  const revisions = await Promise.all(
    [...snapshotIds].map(async (snapshotId) => ({
      snapshotId,
      commit:
        consent.find((c) => c.snapshot_id === snapshotId && c.content_commit)?.content_commit ??
        (await commitOfSnapshot(db, snapshotId)),
    })),
  )
  return {
    key,
    matchedBy,
    sessionIds,
    anonymousIds,
    userIds,
    revisions,
    entries,
    numberShown: lastShown(entries),
  }
}

function lastShown(entries: readonly LeadEntry[]): LeadStory['numberShown'] {
  let shown: LeadStory['numberShown'] = null
  for (const e of entries) {
    if (e.kind === 'event' && e.event.type === 'track' && e.event.name === THANK_YOU_PHONE) {
      const p = e.event.body.properties as { phoneShown?: unknown; phoneSource?: unknown }
      const source = p.phoneSource === 'leased' || p.phoneSource === 'default' ? p.phoneSource : 'none'
      shown = { number: typeof p.phoneShown === 'string' ? p.phoneShown : null, source, at: e.at }
    } else if (e.kind === 'marketplace' && e.call.kind === 'get-phone' && e.call.ok && e.call.phone && shown)
      shown = { number: e.call.phone, source: 'leased', at: e.at }
  }
  return shown
}
