/* Generated from schemas/cc-answers/images.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Sha } from './common'
export type { Sha }

/**
 * Answers of the images API (server/api/control-center/images.ts, docs/decisions/0920). Each property names one answer.
 */
export interface CcImageAnswers {
  ImageList?: ImageList
  CcImageAnswer?: CcImageAnswer
  CcImageCommitted?: CcImageCommitted
  CcImageReplaced?: CcImageReplaced
  CcImageRemoved?: CcImageRemoved
}
/**
 * GET /api/cc/branches/:b/images: every image of the branch head.
 *
 * This interface was referenced by `CcImageAnswers`'s JSON-Schema
 * via the `definition` "ImageList".
 */
export interface ImageList {
  head: Sha
  images: ImageRow[]
}
/**
 * An image of a branch as the images screen and the image picker show it: its definition (schemas/image.schema.json) with where it is used.
 *
 * This interface was referenced by `CcImageAnswers`'s JSON-Schema
 * via the `definition` "ImageRow".
 */
export interface ImageRow {
  $schema?: string
  id: string
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
  /**
   * Its definition file.
   */
  path: string
  /**
   * Where it is used on the branch head (pages, experiment variants, articles, brands).
   */
  usedBy: ImageUse[]
  /**
   * The WebP file its src names is missing from the tree.
   */
  missing: boolean
}
/**
 * This interface was referenced by `CcImageAnswers`'s JSON-Schema
 * via the `definition` "ImageUse".
 */
export interface ImageUse {
  /**
   * Definition kind of the file that uses the image.
   */
  kind: string
  id: string
  path: string
  /**
   * JSON pointer of the object holding `src` (e.g. `/image`).
   */
  pointer: string
}
/**
 * GET /api/cc/branches/:b/images/:id.
 *
 * This interface was referenced by `CcImageAnswers`'s JSON-Schema
 * via the `definition` "CcImageAnswer".
 */
export interface CcImageAnswer {
  head: Sha
  image: ImageRow
}
/**
 * POST /api/cc/branches/:b/images (201) and PUT …/images/:id: the image after its one commit.
 *
 * This interface was referenced by `CcImageAnswers`'s JSON-Schema
 * via the `definition` "CcImageCommitted".
 */
export interface CcImageCommitted {
  image: ImageRow
  commit: Sha
}
/**
 * PUT /api/cc/branches/:b/images/:id/file: the new file, and the definitions whose references were updated.
 *
 * This interface was referenced by `CcImageAnswers`'s JSON-Schema
 * via the `definition` "CcImageReplaced".
 */
export interface CcImageReplaced {
  image: ImageRow
  commit: Sha
  updated: string[]
}
/**
 * DELETE /api/cc/branches/:b/images/:id (409 with `usedBy` while it is used).
 *
 * This interface was referenced by `CcImageAnswers`'s JSON-Schema
 * via the `definition` "CcImageRemoved".
 */
export interface CcImageRemoved {
  commit: Sha
}
