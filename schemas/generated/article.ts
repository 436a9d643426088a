/* Generated from schemas/article.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Image, Slug } from './common'
export type { Image, Slug }

/**
 * Id of a document in definitions/authors/.
 */
export type Slug1 = string

/**
 * A review article served by the reviews catch-all (definitions/articles/<id>.json). The body is Markdown.
 */
export interface Article {
  $schema?: string
  id: Slug
  /**
   * URL after /reviews/ (one or more segments). Defaults to the id.
   */
  slug?: string
  title: string
  /**
   * Meta description and the summary in lists.
   */
  description: string
  author: Slug1
  /**
   * Publication date, YYYY-MM-DD.
   */
  date: string
  /**
   * Date of the last substantial update.
   */
  updated?: string
  /**
   * Insurance carrier the article is about.
   */
  carrier: string
  image?: Image
  /**
   * Markdown. A string, or a list of lines joined with newlines (easier to read in JSON).
   */
  body: string | [string, ...string[]]
}