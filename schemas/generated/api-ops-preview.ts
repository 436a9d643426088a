/* Generated from schemas/api-ops-preview.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/_ops/previews: a preview grant of a branch for `npm run content -- import`, signed with the server's key.
 */
export interface ApiOpsPreview {
  /**
   * A branch name.
   */
  branch: string
  /**
   * E-mail of the active staff user the grant is for (default: the most recently added active one).
   */
  as?: string
}
