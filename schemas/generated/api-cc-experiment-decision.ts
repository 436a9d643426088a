/* Generated from schemas/api-cc-experiment-decision.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/cc/branches/:b/experiments/:id/decisions: one decision as a commit on the branch.
 */
export interface ApiCcExperimentDecision {
  decision: 'start' | 'pause' | 'finish' | 'ship'
  /**
   * The variant to ship (decision ship only).
   */
  variant?: string
  /**
   * The branch head the decision was made on (409 when it moved).
   */
  expectedHead?: string
}
