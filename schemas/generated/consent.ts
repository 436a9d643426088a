/* Generated from schemas/consent.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { BrandId, Slug } from './common'
export type { BrandId, Slug }

/**
 * A TCPA consent text shown beside a funnel step that asks a phone number (definitions/consent/<id>.json). Shown exactly as written, with {sellerLegalName} and {buttonLabel} filled in; its version is the SHA-256 of `text`, so changing a word makes a new version (docs/decisions/0800).
 */
export interface ConsentText {
  $schema?: string
  id: Slug
  description?: string
  /**
   * Brands of this vertical show it, unless a text names them in `brands`.
   */
  vertical: 'medicare' | 'auto'
  /**
   * Only these brands show it, in place of their vertical's text.
   *
   * @minItems 1
   */
  brands?: [BrandId, ...BrandId[]]
  /**
   * The page language it is shown on (docs/decisions/0004).
   */
  language: 'english' | 'es'
  /**
   * Plain text (no markup). Must name {sellerLegalName} and {buttonLabel}; no other placeholder.
   */
  text: string
}
