/* Generated from schemas/phone-rule.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { BrandId } from './common'
export type { BrandId }
/**
 * Which phone line a visitor sees (spec point 3): the default number, the marketplace placement and the affiliate id. A rule applies to one brand; `match` narrows it to pages and traffic sources, and the most specific matching rule wins. Every public brand has exactly one rule without `match`, its default.
 */
export interface PhoneRule {
  $schema?: string
  /**
   * Equals the file name.
   */
  id: string
  description?: string
  brand: BrandId
  /**
   * All given criteria must hold (each list: any of its values). Absent criteria match anything.
   */
  match?: {
    /**
     * Page keys.
     *
     * @minItems 1
     */
    pages?: [string, ...string[]]
    /**
     * Values of the utm_source URL parameter (compared case-insensitively).
     *
     * @minItems 1
     */
    utmSource?: [string, ...string[]]
    /**
     * Values of the afid URL parameter.
     *
     * @minItems 1
     */
    afid?: [string, ...string[]]
  }
  /**
   * Raw value: country code 1 then the ten-digit number, e.g. 18885550101. Shown when no leased number is held.
   */
  defaultNumber: string
  placementId: string
  /**
   * Affiliate id sent as sub_1 when the URL has no afid.
   */
  afid: string
}
