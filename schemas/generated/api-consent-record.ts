/* Generated from schemas/api-consent-record.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { BrandId, Slug } from './common'
export type { BrandId, Slug }

export type VisitorId = string
/**
 * One body of POST /api/consent/create (docs/decisions/0800): the consent text a visitor saw beside a funnel step they submitted. The server adds its time, the client IP and user agent, and stores it once per id; the text must be a version the server served, filled for the brand's seller. The endpoint also takes an array of up to EVENT_BATCH_MAX of them.
 */
export interface ConsentRecordBody {
  /**
   * Tells a consent record from an event in the browser's one queue.
   */
  type: 'consent'
  id: VisitorId
  sessionId: VisitorId
  anonymousId: VisitorId
  userId?: VisitorId
  brand: BrandId
  pageKey: string
  formVersion: string
  stepName: string
  stepNumber: number
  consent: ConsentClaim
  /**
   * Names (not values) of the fields collected on the step.
   *
   * @maxItems 50
   */
  fields: string[]
  url: string
  /**
   * The content revision the page was rendered from.
   */
  snapshotId: string
  experiment?: ConsentExperiment
}
export interface ConsentClaim {
  id: Slug
  version: string
  text: string
  /**
   * SHA-256 of `text` (UTF-8), hex.
   */
  sha256: string
  seller: string
  buttonLabel: string
}
/**
 * The running experiment on the page and the variant the visitor saw.
 */
export interface ConsentExperiment {
  id: string
  variant: string
}
