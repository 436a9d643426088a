/* Generated from schemas/cc-answers/live.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Sha } from './common'
export type { Sha }

/**
 * Answers of live's health (server/api/control-center/live-health.ts, docs/decisions/0610). Each property names one answer.
 */
export interface CcLiveAnswers {
  CcLive?: CcLive
  CcLiveRestored?: CcLiveRestored
}
/**
 * GET /api/cc/live: the banner's data.
 *
 * This interface was referenced by `CcLiveAnswers`'s JSON-Schema
 * via the `definition` "CcLive".
 */
export interface CcLive {
  live: LiveHealth
  /**
   * The newest publication when it is a move of published by hand on the server, outside the control center (docs/decisions/0620); null otherwise.
   */
  movedOutside: {
    publication: string
    from: Sha | null
    to: Sha
    at: string
  } | null
}
/**
 * A refused commit on published, and the one served instead (server/content/live-content.ts).
 *
 * This interface was referenced by `CcLiveAnswers`'s JSON-Schema
 * via the `definition` "LiveHealth".
 */
export interface LiveHealth {
  content: 'ok' | 'degraded'
  serving: Sha | null
  refused: {
    commit: Sha
    errors: string[]
    at: string
  } | null
}
/**
 * POST /api/cc/live/restore: published moved back from the refused commit to the served one.
 *
 * This interface was referenced by `CcLiveAnswers`'s JSON-Schema
 * via the `definition` "CcLiveRestored".
 */
export interface CcLiveRestored {
  restored: {
    from: Sha
    to: Sha
  }
  live: LiveHealth
}
