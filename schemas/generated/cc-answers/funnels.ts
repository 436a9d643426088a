/* Generated from schemas/cc-answers/funnels.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Answers of a funnel's drop-off (server/control-center/api/funnels.ts, docs/decisions/0313). Each property names one answer.
 */
export interface CcFunnelAnswers {
  CcFunnelDropoff?: CcFunnelDropoff
}
/**
 * GET /api/cc/funnels/:id/dropoff: who reached and submitted each step of the funnel and where they went next, in the range, overall and per segment of ?by. Bots excluded; server-side and browser submissions alike.
 *
 * This interface was referenced by `CcFunnelAnswers`'s JSON-Schema
 * via the `definition` "CcFunnelDropoff".
 */
export interface CcFunnelDropoff {
  funnel: string
  pages: string[]
  since: string
  until: string
  by: ('brand' | 'page' | 'source' | 'device' | 'variant') | null
  /**
   * Browsers that reached any step.
   */
  visitors: number
  steps: DropoffStep[]
  segments: DropoffSegment[]
}
/**
 * This interface was referenced by `CcFunnelAnswers`'s JSON-Schema
 * via the `definition` "DropoffStep".
 */
export interface DropoffStep {
  step: string
  /**
   * 1-based position in the funnel; null for a step the funnel no longer has.
   */
  position: number | null
  reached: number
  submitted: number
  /**
   * Went on to a later step, by step name.
   */
  forward: {
    [k: string]: number
  }
  /**
   * Went back to an earlier step.
   */
  back: number
  completed: number
  left: number
}
/**
 * This interface was referenced by `CcFunnelAnswers`'s JSON-Schema
 * via the `definition` "DropoffSegment".
 */
export interface DropoffSegment {
  segment: string
  /**
   * Browsers that reached any step.
   */
  visitors: number
  steps: DropoffStep[]
}
