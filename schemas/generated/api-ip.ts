/* Generated from schemas/api-ip.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Answer of GET /api/ip (spec point 3): the visitor's IP as the server sees it (server/http/request-client.ts) and what is known of its geo; unknown parts are absent.
 */
export interface IpLookup {
  value: string
  geo: Geo
}
/**
 * This interface was referenced by `IpLookup`'s JSON-Schema
 * via the `definition` "Geo".
 */
export interface Geo {
  postalCode?: string
  stateCode?: string
  cityName?: string
  isp?: string
}
