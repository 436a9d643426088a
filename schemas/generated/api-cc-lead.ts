/* Generated from schemas/api-cc-lead.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/cc/leads/export and /api/cc/leads/erase: the person, named by what they gave or an id (docs/decisions/0811).
 */
export interface ApiCcLead {
  /**
   * An e-mail address, a phone number, or an anonymous, session or user id.
   */
  key: string
}
