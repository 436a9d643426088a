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
  /**
   * How the content factory writes as this author (CONTROL-CENTER §5). Optional; without it, the house rules alone apply.
   */
  persona?: {
    /**
     * How the author sounds, e.g. "warm, plain, practical; short sentences".
     */
    voice: string
    /**
     * Who reads it, e.g. "people turning 65 comparing Medicare Advantage plans".
     */
    audience: string
    /**
     * @maxItems 20
     */
    expertise?:
      | []
      | [string]
      | [string, string]
      | [string, string, string]
      | [string, string, string, string]
      | [string, string, string, string, string]
      | [string, string, string, string, string, string]
      | [string, string, string, string, string, string, string]
      | [string, string, string, string, string, string, string, string]
      | [string, string, string, string, string, string, string, string, string]
      | [string, string, string, string, string, string, string, string, string, string]
      | [string, string, string, string, string, string, string, string, string, string, string]
      | [string, string, string, string, string, string, string, string, string, string, string, string]
      | [
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string
        ]
      | [
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string
        ]
      | [
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string
        ]
      | [
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string
        ]
      | [
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string
        ]
      | [
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string
        ]
      | [
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string
        ]
      | [
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string,
          string
        ]
    /**
     * Target reading level.
     */
    readingLevel?: 'grade-6' | 'grade-8' | 'grade-10' | 'grade-12'
    /**
     * Things this author never does, e.g. "promise savings".
     *
     * @maxItems 30
     */
    doNot?: string[]
    /**
     * Sampling temperature for this author (default 0.7).
     */
    temperature?: number
  }
}
