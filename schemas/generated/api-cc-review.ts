/* Generated from schemas/api-cc-review.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/cc/branches/:b/reviews.
 */
export interface ApiCcReview {
  decision: 'approve' | 'request-changes' | 'request'
  comment?: string
}
