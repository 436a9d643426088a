/* Generated from schemas/cc-answers/activity.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Sha, StaffUserView } from './common'
export type { Sha, StaffUserView }

/**
 * Answers of preview grants and the activity log (server/api/control-center/previews-activity.ts). Each property names one answer.
 */
export interface CcActivityAnswers {
  CcPreviewGrant?: CcPreviewGrant
  CcAuditPage?: CcAuditPage
}
/**
 * POST /api/cc/previews: a preview grant (docs/decisions/0601) and the URL to open on each brand.
 *
 * This interface was referenced by `CcActivityAnswers`'s JSON-Schema
 * via the `definition` "CcPreviewGrant".
 */
export interface CcPreviewGrant {
  token: string
  expiresAt: string
  commit: Sha
  /**
   * Brand id → the preview URL on that brand's host.
   */
  urls: {
    [k: string]: string
  }
}
/**
 * GET /api/cc/audit (`?limit=&before=&actor=&action=&branch=`): newest first.
 *
 * This interface was referenced by `CcActivityAnswers`'s JSON-Schema
 * via the `definition` "CcAuditPage".
 */
export interface CcAuditPage {
  entries: AuditEntry[]
}
/**
 * This interface was referenced by `CcActivityAnswers`'s JSON-Schema
 * via the `definition` "AuditEntry".
 */
export interface AuditEntry {
  id: string
  at: string
  actor: StaffUserView | null
  action: string
  target: string | null
  /**
   * The target's name when the target is a staff user.
   */
  targetName: string | null
  /**
   * What the action recorded (any JSON).
   */
  details: unknown
  /**
   * Shown to those who may read the whole log only.
   */
  ip: string | null
}