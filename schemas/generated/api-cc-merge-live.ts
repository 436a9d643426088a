/* Generated from schemas/api-cc-merge-live.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/cc/branches/:b/merge-live (Update from live).
 */
export interface ApiCcMergeLive {
  /**
   * A full commit sha.
   */
  expectedHead: string
  /**
   * @maxItems 1000
   */
  resolutions?: {
    /**
     * A file path in the content repository, e.g. definitions/pages/grocery.json.
     */
    path: string
    pointer: string
    /**
     * theirs: live's value; mine: the branch's.
     */
    take: 'theirs' | 'mine'
  }[]
}
