/* Generated from schemas/cc-answers/articles.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { DefinitionError, FileState, Sha } from './common'
export type { DefinitionError, FileState, Sha }

/**
 * Answers of the articles editor (server/api/control-center/article-preview.ts). Each property names one answer.
 */
export interface CcArticleAnswers {
  ArticleListData?: ArticleListData
  ArticlePreviewData?: ArticlePreviewData
}
/**
 * GET /api/cc/branches/:b/articles.
 *
 * This interface was referenced by `CcArticleAnswers`'s JSON-Schema
 * via the `definition` "ArticleListData".
 */
export interface ArticleListData {
  head: Sha
  articles: ArticleRow[]
  authors: {
    id: string
    name: string
  }[]
  serving: ArticleServing[]
}
/**
 * An article file of the branch as the articles screen lists it (my draft when I have one).
 *
 * This interface was referenced by `CcArticleAnswers`'s JSON-Schema
 * via the `definition` "ArticleRow".
 */
export interface ArticleRow {
  path: string
  id: string
  state: FileState
  draft: boolean
  problems: number
  /**
   * The document as saved (a draft need not be valid yet); null when the text is not a JSON object.
   */
  article: import('../article').Article | null
  errors: DefinitionError[]
}
/**
 * A brand that serves articles, and its article page's path pattern (`/reviews/{slug...}`).
 *
 * This interface was referenced by `CcArticleAnswers`'s JSON-Schema
 * via the `definition` "ArticleServing".
 */
export interface ArticleServing {
  brand: string
  pattern: string
}
/**
 * POST /api/cc/branches/:b/article-preview: an unsaved article rendered by the published article page's own path.
 *
 * This interface was referenced by `CcArticleAnswers`'s JSON-Schema
 * via the `definition` "ArticlePreviewData".
 */
export interface ArticlePreviewData {
  /**
   * The brand the preview was rendered for; null when no brand serves articles.
   */
  brand: string | null
  path: string | null
  /**
   * The article body's HTML exactly as the published page carries it.
   */
  html: string
  /**
   * The whole article page's HTML, or null when this server cannot render pages (no build).
   */
  page: string | null
}
