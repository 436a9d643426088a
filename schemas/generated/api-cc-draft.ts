/* Generated from schemas/api-cc-draft.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of PUT /api/cc/branches/:b/drafts?path=…: the unsaved text of one file (null deletes it).
 */
export interface ApiCcDraft {
  text: string | null
}
