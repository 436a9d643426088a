/**
 * Consent evidence in the store (migration 0004, docs/decisions/0800): the versions of consent text
 * the server served, and the records of steps submitted under one. Both tables are append-only.
 */
import type { ConsentShown } from '../../engine/consent/consent-text'
import type { ConsentRecordBody } from '../../schemas/generated/api-consent-record'
import type { Queryable } from './db'

/** One row of consent_records. */
export interface ConsentRecordRow {
  id: string
  received_at: string
  session_id: string
  anonymous_id: string
  user_id: string | null
  brand_id: string
  page_key: string
  form_version: string
  step_name: string
  step_number: number
  consent_id: string
  version: string
  text: string
  text_sha256: string
  seller: string
  button_label: string
  fields: string[]
  url: string
  ip: string | null
  user_agent: string | null
  snapshot_id: string
  content_commit: string | null
  experiment: { id: string; variant: string } | null
  body: ConsentRecordBody
}

const RECORD_COLUMNS =
  'id text, received_at timestamptz, session_id text, anonymous_id text, user_id text, brand_id text, page_key text, form_version text, step_name text, step_number integer, consent_id text, version text, text text, text_sha256 text, seller text, button_label text, fields jsonb, url text, ip text, user_agent text, snapshot_id text, content_commit text, experiment jsonb, body jsonb'

/** Records the versions a snapshot serves; a version already known keeps its first sighting. */
export async function registerConsentVersions(
  db: Queryable,
  versions: readonly ConsentShown[],
  snapshotId: string,
  sha256: (text: string) => string,
): Promise<void> {
  if (!versions.length) return
  await db.query(
    `INSERT INTO consent_versions (version, consent_id, language, template, template_sha256, first_snapshot_id)
     SELECT * FROM jsonb_to_recordset($1::jsonb)
       AS x(version text, consent_id text, language text, template text, template_sha256 text, first_snapshot_id text)
     ON CONFLICT (version) DO NOTHING`,
    [
      JSON.stringify(
        versions.map((v) => ({
          version: v.version,
          consent_id: v.id,
          language: v.language,
          template: v.template,
          template_sha256: sha256(v.template),
          first_snapshot_id: snapshotId,
        })),
      ),
    ],
  )
}

export interface StoredConsentVersion {
  version: string
  consent_id: string
  language: string
  template: string
  first_snapshot_id: string
  first_seen_at: string
}

export async function findConsentVersion(
  db: Queryable,
  version: string,
): Promise<StoredConsentVersion | null> {
  const r = await db.query<Record<string, unknown>>('SELECT * FROM consent_versions WHERE version = $1', [
    version,
  ])
  const row = r.rows[0]
  return row ? ({ ...row, first_seen_at: iso(row.first_seen_at) } as unknown as StoredConsentVersion) : null
}

/** Inserts records in one statement; an id already stored is skipped. Returns how many were new. */
export async function insertConsentRecords(
  db: Queryable,
  rows: readonly ConsentRecordRow[],
): Promise<number> {
  if (!rows.length) return 0
  const r = await db.query<{ n: number }>(
    `WITH ins AS (
       INSERT INTO consent_records
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${RECORD_COLUMNS})
       ON CONFLICT (id) DO NOTHING
       RETURNING 1
     ) SELECT count(*)::int AS n FROM ins`,
    [JSON.stringify(rows)],
  )
  return r.rows[0]?.n ?? 0
}

/** The published commit a snapshot was built from, when the control center published it. */
export async function commitOfSnapshot(db: Queryable, snapshotId: string): Promise<string | null> {
  const r = await db.query<{ new_commit: string }>(
    'SELECT new_commit FROM content_publications WHERE snapshot_id = $1 ORDER BY id DESC LIMIT 1',
    [snapshotId],
  )
  return r.rows[0]?.new_commit ?? null
}

/** Records of the given sessions or anonymous ids, oldest first. */
export async function consentRecordsOf(
  db: Queryable,
  ids: { sessions: readonly string[]; anonymous: readonly string[] },
): Promise<ConsentRecordRow[]> {
  const r = await db.query<Record<string, unknown>>(
    `SELECT * FROM consent_records WHERE session_id = ANY($1::text[]) OR anonymous_id = ANY($2::text[])
     ORDER BY received_at, id`,
    [ids.sessions, ids.anonymous],
  )
  return r.rows.map((row) => ({ ...(row as unknown as ConsentRecordRow), received_at: iso(row.received_at) }))
}

function iso(v: unknown): string {
  return v instanceof Date ? v.toISOString() : String(v)
}
