/* Generated from schemas/api-cc-presence.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of PUT /api/cc/branches/:b/presence: the heartbeat of an open editor (I am editing this file on this branch).
 */
export interface ApiCcPresence {
  /**
   * A file path in the content repository, e.g. definitions/pages/grocery.json.
   */
  path: string
}
