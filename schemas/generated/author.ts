/* Generated from schemas/author.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Slug } from './common'
export type { Slug }

/**
 * A person who writes articles (definitions/authors/<id>.json).
 */
export interface Author {
  $schema?: string
  id: Slug
  /**
   * Name shown in the byline.
   */
  name: string
  /**
   * One or two sentences shown under an article.
   */
  bio: string
  /**
   * Licences and qualifications, e.g. "Licensed health insurance agent (IL)".
   */
  credentials?: string[]
}
