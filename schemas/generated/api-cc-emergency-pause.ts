/* Generated from schemas/api-cc-emergency-pause.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/cc/experiments/:id/emergency-pause: pause the live experiment now (publisher+).
 */
export interface ApiCcEmergencyPause {
  /**
   * Why, for the commit message and the audit log.
   */
  reason?: string
}
