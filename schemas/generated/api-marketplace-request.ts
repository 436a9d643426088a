/* Generated from schemas/api-marketplace-request.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * Body of POST /api/mediaalpha/get-phone and /api/mediaalpha/demand-check as the browser sends it (docs/decisions/0523): what the browser knows of the visitor and the page, and the quote answers. The server builds the marketplace body from it (engine/phone/payloads.ts, spec points 5-7) with the client IP and user agent it sees. A full marketplace body (api-get-phone-body, api-demand-check-body) is accepted as before.
 */
export interface MarketplaceRequest {
  brandId: string
  pageKey: string | null
  localHour: number
  placementId: string
  ruleAfid: string
  /**
   * The page URL as the visitor sees it; the server cuts it to the marketplace's length, as it cuts the ids and the source entries.
   */
  url: string
  /**
   * The tracked URL parameters (utm_*, afid, click ids) of the visit.
   */
  urlParams: {
    [k: string]: string
  }
  userId: string
  sessionId: string
  /**
   * The geo of GET /api/ip's answer that the marketplace body uses.
   */
  geo: {
    postalCode?: string
    stateCode?: string
  }
  /**
   * The visitor's answers to the quote fields (engine/phone/quote-fields.ts), as given; the server keeps only the valid ones (spec point 5), so an overlong answer is left out, not refused.
   */
  values: {
    [k: string]: string | boolean
  }
}
