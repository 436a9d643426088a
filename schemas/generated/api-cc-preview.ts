/* Generated from schemas/api-cc-preview.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/cc/previews: mint a preview grant.
 */
export interface ApiCcPreview {
  /**
   * A branch name (`live` for the published content).
   */
  branch: string
  /**
   * Include my unsaved drafts (default true).
   */
  drafts?: boolean
  brand?: string
  path?: string
}
