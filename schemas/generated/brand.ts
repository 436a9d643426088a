/* Generated from schemas/brand.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { BrandId, Color, Image } from './common'
export type { BrandId, Color, Image }
/**
 * One brand: a site served on its own domains (spec point 1 and 3).
 */
export interface Brand {
  $schema?: string
  id: BrandId
  url: string
  /**
   * Display name. May contain `{product}`, filled from the page's product (brand `emily`).
   */
  name: string
  /**
   * Name used when the name template needs a product and the page has none.
   */
  fallbackName?: string
  /**
   * medicare and auto brands are public sites; internal is the control center.
   */
  vertical: 'medicare' | 'auto' | 'internal'
  tagManagerId: string
  measurementId?: string
  logo: Image
  icon: Image
  favicon: Image
  /**
   * Host names served as this brand: exact (medicare10.com), wildcard (*.medicare10.com) or local (m10.localhost).
   *
   * @minItems 1
   */
  domains: [string, ...string[]]
  ownerLegalName: string
  postalAddress: {
    street: string
    city: string
    region: string
    postalCode: string
    country: string
  }
  tpmo?: TpmoCounts
  supportEmail?: string
  tagline?: string
  /**
   * Brand colours. Text on `primary` uses `onPrimary`; both must reach 4.5:1 contrast.
   */
  theme: {
    primary: Color
    onPrimary: Color
    accent: Color
    surface: Color
    ink: Color
  }
}
/**
 * The CMS third-party marketing organization disclaimer of a Medicare brand (42 CFR 422.2267(e)(41)): how many organizations it represents and how many plans they offer. Required on Medicare brands; auto and internal brands have none.
 */
export interface TpmoCounts {
  organizations: number
  plans: number
}
