/* Generated from schemas/api-ops-staff.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/_ops/staff: one `npm run staff` command run by the server that holds the PGlite folder.
 */
export interface ApiOpsStaff {
  /**
   * The command and its words, as typed: ["add", EMAIL, NAME…], ["role", EMAIL, ROLE], ["disable", EMAIL], … (the body is at most 16 KB)
   *
   * @minItems 1
   */
  args: [string, ...string[]]
  /**
   * --role of `add`.
   */
  role?: string
  /**
   * The new user's password (FW_STAFF_PASSWORD); absent: one is generated and answered once.
   */
  password?: string
}
