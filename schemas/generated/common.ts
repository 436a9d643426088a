/* Generated from schemas/common.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * This interface was referenced by `CommonDefinitions`'s JSON-Schema
 * via the `definition` "BrandId".
 */
export type BrandId = string
/**
 * This interface was referenced by `CommonDefinitions`'s JSON-Schema
 * via the `definition` "Slug".
 */
export type Slug = string
/**
 * This interface was referenced by `CommonDefinitions`'s JSON-Schema
 * via the `definition` "Color".
 */
export type Color = string

export interface CommonDefinitions {
  [k: string]: unknown
}
/**
 * An image asset. `src` is a path under ui/public (starting with /) or an https URL.
 *
 * This interface was referenced by `CommonDefinitions`'s JSON-Schema
 * via the `definition` "Image".
 */
export interface Image {
  src: string
  /**
   * Text read to screen readers; empty only for decorative images.
   */
  alt: string
  width: number
  height: number
}
