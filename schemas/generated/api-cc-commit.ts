/* Generated from schemas/api-cc-commit.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/cc/branches/:b/commits: turn drafts into one commit.
 */
export interface ApiCcCommit {
  /**
   * Commit message (default: Update content).
   */
  message: string
  /**
   * A full commit sha.
   */
  expectedHead: string
  /**
   * Drafts to commit (default all of mine).
   *
   * @minItems 1
   * @maxItems 500
   *
   * Items: A file path in the content repository, e.g. definitions/pages/grocery.json.
   */
  paths?: [string, ...string[]]
}
