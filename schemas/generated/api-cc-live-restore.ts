/* Generated from schemas/api-cc-live-restore.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/cc/live/restore: move published back from the refused commit to the served one.
 */
export interface ApiCcLiveRestore {
  /**
   * The refused commit the banner showed (a full sha): restore only if published is still there.
   */
  refused: string
}
