/* Generated from schemas/cc-answers/leads.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Answers of a person's data on request (server/control-center/api/leads.ts, docs/decisions/0811). Each property names one answer.
 */
export interface CcLeadAnswers {
  LeadExport?: LeadExport
  LeadErasure?: LeadErasure
}
/**
 * POST /api/cc/leads/export: every record held about the person the key leads to.
 *
 * This interface was referenced by `CcLeadAnswers`'s JSON-Schema
 * via the `definition` "LeadExport".
 */
export interface LeadExport {
  key: string
  /**
   * How the key was read: an e-mail or phone given in an answer, an id; null: nothing held.
   */
  matchedBy: 'email' | 'phone' | 'id' | null
  /**
   * The erasure that covered this key, or null.
   */
  erased: null | {
    id: string
    at: string
  }
  anonymousIds: string[]
  sessionIds: string[]
  userIds: string[]
  answers: {
    anonymous_id: string
    bucket: string
    answers: unknown
    updated_at: string
  }[]
  answerKeys: {
    anonymous_id: string
    created_at: string
  }[]
  visitors: LeadRow[]
  events: LeadRow[]
  consentRecords: LeadRow[]
  marketplaceCalls: LeadRow[]
}
/**
 * One stored row as the store holds it (column → value; times as ISO strings).
 *
 * This interface was referenced by `CcLeadAnswers`'s JSON-Schema
 * via the `definition` "Row".
 */
export interface LeadRow {
  [k: string]: unknown
}
/**
 * POST /api/cc/leads/erase: what the erasure removed or redacted (erasureId null: nothing personal was held).
 *
 * This interface was referenced by `CcLeadAnswers`'s JSON-Schema
 * via the `definition` "LeadErasure".
 */
export interface LeadErasure {
  key: string
  matchedBy: 'email' | 'phone' | 'id' | null
  erasureId: string | null
  /**
   * Rows deleted or redacted per table.
   */
  counts: {
    [k: string]: number
  }
}
