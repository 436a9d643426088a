/* Generated from schemas/api-demand-check-body.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * First the afid or the text null, then utm_source, utm_medium, utm_campaign, utm_content, utm_term and the page key (each the text null when absent).
 *
 * @minItems 7
 * @maxItems 7
 */
export type Source = [string, string, string, string, string, string, string]

/**
 * Body of POST /api/mediaalpha/demand-check (spec point 7). The server replaces `ip` with the client IP it sees.
 */
export interface DemandCheckBody {
  data: {
    zip?: string
    state?: string
  }
  ip?: string
  local_hour: number
  max: 1
  call_type: 'Inbound'
  transfer_type: 'cold'
  placement_id: string
  ua: string
  url: string
  version: 17
  sub_1: string
  sub_2: string
  sub_3: string
  source: Source
}
