/* Generated from schemas/cc-answers/presence.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Answers of presence (server/api/control-center/presence.ts, docs/decisions/0950). Each property names one answer.
 */
export interface CcPresenceAnswers {
  PresenceAnswer?: PresenceAnswer
  CcPresenceLeft?: CcPresenceLeft
}
/**
 * PUT (heartbeat) and GET /api/cc/branches/:b/presence: who else edits this file on this branch, and how often to ask.
 *
 * This interface was referenced by `CcPresenceAnswers`'s JSON-Schema
 * via the `definition` "PresenceAnswer".
 */
export interface PresenceAnswer {
  branch: string
  path: string
  /**
   * Other staff editing this file on this branch, longest first.
   */
  others: {
    id: string
    name: string
    since: string
  }[]
  heartbeatMs: number
  pollMs: number
  expiresMs: number
}
/**
 * DELETE /api/cc/branches/:b/presence?path=: the editor closed.
 *
 * This interface was referenced by `CcPresenceAnswers`'s JSON-Schema
 * via the `definition` "CcPresenceLeft".
 */
export interface CcPresenceLeft {
  branch: string
  path: string
  left: true
}
