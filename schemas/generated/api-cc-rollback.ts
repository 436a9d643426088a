/* Generated from schemas/api-cc-rollback.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/cc/rollback: roll back to before a publication.
 */
export interface ApiCcRollback {
  publication: string
  /**
   * A full commit sha.
   */
  expectedLive: string
}
