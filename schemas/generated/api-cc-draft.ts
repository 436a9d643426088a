/* Generated from schemas/api-cc-draft.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of PUT /api/cc/branches/:b/drafts?path=…: the unsaved text of one file (null deletes it).
 */
export interface ApiCcDraft {
  text: string | null
  /**
   * The commit this text was written on (the merge dialog's resolution: the head its conflict named). The draft's base becomes the file at that commit; without it, the file at the head when the draft was first saved.
   */
  base?: string
}
