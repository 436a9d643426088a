/* Generated from schemas/api-cc-publish.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/cc/branches/:b/publish: publish now, or at a time.
 */
export interface ApiCcPublish {
  /**
   * A full commit sha.
   */
  expectedHead: string
  /**
   * Schedule the publish for this time instead of now.
   */
  at?: string
  /**
   * Admins only: publish past gates that ran out of their time budget (never past a real finding), for this reason, recorded in the audit log.
   */
  overrideBudget?: {
    /**
     * Why publishing without a complete check is safe (at least 10 characters).
     */
    reason: string
  }
}
