/* Generated from schemas/image.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Slug } from './common'
export type { Slug }

/**
 * An image uploaded through the control center (definitions/images/<id>.json): the server re-encoded it to WebP (auto-oriented, metadata stripped, longest side at most 2400 px) and stored the bytes under a content-hashed name in ui/public/images/uploads/. Pages, experiment variants, articles and brands use it by its `src`.
 */
export interface UploadedImage {
  $schema?: string
  id: Slug
  /**
   * /images/uploads/<id>.<first 8 hex digits of sha256>.webp, served immutable.
   */
  src: string
  /**
   * Text read to screen readers. Required unless the image is decorative.
   */
  alt: string
  /**
   * Purely decorative: screen readers skip it and the alt text stays empty.
   */
  decorative?: boolean
  /**
   * Width of the stored WebP in pixels.
   */
  width: number
  /**
   * Height of the stored WebP in pixels.
   */
  height: number
  /**
   * Size of the stored WebP in bytes.
   */
  bytes: number
  /**
   * SHA-256 of the stored WebP bytes.
   */
  sha256: string
  /**
   * File name as uploaded.
   */
  originalName: string
  /**
   * Photographer or source, when the licence asks for one.
   */
  credit?: string
}
