/* Generated from schemas/cc-answers/publishing.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Publication, PublicationKind, Sha, StaffUserView } from './common'
export type { Publication, PublicationKind, Sha, StaffUserView }

/**
 * POST /api/cc/branches/:b/publish: the publication made now, or the publish scheduled (`at` given).
 *
 * This interface was referenced by `CcPublishingAnswers`'s JSON-Schema
 * via the `definition` "CcPublished".
 */
export type CcPublished =
  | {
      publication: Publication
    }
  | {
      scheduled: {
        at: string
        commit: Sha
      }
    }
/**
 * Answers of publishing (server/api/control-center/publishing.ts): publish now or at a time, the live history, revert one publication, roll back. Each property names one answer.
 */
export interface CcPublishingAnswers {
  CcPublished?: CcPublished
  CcPublicationList?: CcPublicationList
  CcRevertBranch?: CcRevertBranch
  CcRolledBack?: CcRolledBack
}
/**
 * GET /api/cc/publications: the last 100 publications, newest first.
 *
 * This interface was referenced by `CcPublishingAnswers`'s JSON-Schema
 * via the `definition` "CcPublicationList".
 */
export interface CcPublicationList {
  live: {
    commit: Sha | null
  }
  publications: PublicationEntry[]
}
/**
 * A publication in the live history, with who made it and the files it changed.
 *
 * This interface was referenced by `CcPublishingAnswers`'s JSON-Schema
 * via the `definition` "PublicationEntry".
 */
export interface PublicationEntry {
  id: string
  kind: string
  branch: string | null
  oldCommit: Sha | null
  newCommit: Sha
  actor: StaffUserView | null
  at: string
  files: string[]
}
/**
 * POST /api/cc/publications/:id/revert (201): a new branch whose one commit undoes just that publication.
 *
 * This interface was referenced by `CcPublishingAnswers`'s JSON-Schema
 * via the `definition` "CcRevertBranch".
 */
export interface CcRevertBranch {
  branch: {
    name: string
    head: Sha
    paths: string[]
  }
}
/**
 * POST /api/cc/rollback: live back to before a publication.
 *
 * This interface was referenced by `CcPublishingAnswers`'s JSON-Schema
 * via the `definition` "CcRolledBack".
 */
export interface CcRolledBack {
  publication: Publication
}
