/* Generated from schemas/api-cc-branch-update.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of PATCH /api/cc/branches/:b.
 */
export interface ApiCcBranchUpdate {
  title?: string
  description?: string
}
