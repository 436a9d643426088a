/* Generated from schemas/visitor-record.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * This interface was referenced by `VisitorRecord`'s JSON-Schema
 * via the `definition` "VisitorId".
 */
export type VisitorId = string
/**
 * This interface was referenced by `VisitorRecord`'s JSON-Schema
 * via the `definition` "ParamValue".
 */
export type ParamValue = string

/**
 * The visitor record kept in step across tabs and on the server (spec points 3, 4, 7): the body of POST /api/user/set. `urlParams` holds the first-touch tracked parameters (the ones of the visitor's first visit); `session.urlParams` those the current session started with.
 */
export interface VisitorRecord {
  userId: VisitorId
  anonymousId: VisitorId
  session: VisitorSession
  urlParams: TrackedUrlParams
  /**
   * Client time of the change in ms since the epoch; the newest change wins. At most Number.MAX_SAFE_INTEGER, which the store's bigint column holds.
   */
  updatedAt: number
}
/**
 * This interface was referenced by `VisitorRecord`'s JSON-Schema
 * via the `definition` "VisitorSession".
 */
export interface VisitorSession {
  id: VisitorId
  /**
   * Derived paid flag (spec point 3), fixed when the session starts.
   */
  paid: boolean
  urlParams: TrackedUrlParams
  startedAt?: number
}
/**
 * Tracked URL parameters (spec point 3; engine/constants.ts TRACKED_URL_PARAMS).
 *
 * This interface was referenced by `VisitorRecord`'s JSON-Schema
 * via the `definition` "TrackedUrlParams".
 */
export interface TrackedUrlParams {
  fbclid?: ParamValue
  gclid?: ParamValue
  tblci?: ParamValue
  token?: ParamValue
  utm_source?: ParamValue
  utm_medium?: ParamValue
  utm_campaign?: ParamValue
  utm_content?: ParamValue
  utm_term?: ParamValue
  afid?: ParamValue
}
