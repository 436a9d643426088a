/* Generated from schemas/cc-answers/runs.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Sha } from './common'
export type { Sha }

/**
 * This interface was referenced by `CcRunAnswers`'s JSON-Schema
 * via the `definition` "RunStatus".
 */
export type RunStatus = 'queued' | 'running' | 'validating' | 'succeeded' | 'failed' | 'cancelled'
/**
 * Answers of the content factory (server/api/control-center/runs.ts, issue 16). Each property names one answer.
 */
export interface CcRunAnswers {
  RunList?: RunList
  CcRunAnswer?: CcRunAnswer
  CcRunArticle?: CcRunArticle
}
/**
 * GET /api/cc/branches/:b/runs: whether a model is configured, and the branch's runs.
 *
 * This interface was referenced by `CcRunAnswers`'s JSON-Schema
 * via the `definition` "RunList".
 */
export interface RunList {
  configured: boolean
  model: string | null
  runs: Run[]
}
/**
 * A content-factory run (server/content/content-runs.ts).
 *
 * This interface was referenced by `CcRunAnswers`'s JSON-Schema
 * via the `definition` "Run".
 */
export interface Run {
  id: string
  branch: string
  authorId: string
  brief: RunBrief
  messages: ChatMessage[]
  model: string | null
  status: RunStatus
  attempt: number
  output: string
  draft: ArticleDraft | null
  validation: {
    errors: string[]
    warnings: string[]
  } | null
  error: string | null
  promptTokens: number | null
  completionTokens: number | null
  createdBy: string
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  articleId: string | null
  commit: Sha | null
}
/**
 * What the run was asked to write (its POST body's `brief`, schemas/api-cc-run.schema.json; engine/content-factory/prompt.ts Brief).
 *
 * This interface was referenced by `CcRunAnswers`'s JSON-Schema
 * via the `definition` "RunBrief".
 */
export interface RunBrief {
  topic: string
  carrier?: string
  angle?: string
  keywords?: string[]
  /**
   * Target length in words.
   */
  words?: number
  outline?: string[]
}
/**
 * This interface was referenced by `CcRunAnswers`'s JSON-Schema
 * via the `definition` "ChatMessage".
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}
/**
 * The article a run wrote (engine/content-factory/prompt.ts).
 *
 * This interface was referenced by `CcRunAnswers`'s JSON-Schema
 * via the `definition` "ArticleDraft".
 */
export interface ArticleDraft {
  title: string
  description: string
  carrier: string
  slug: string
  body: string[]
}
/**
 * POST /api/cc/branches/:b/runs (201), GET /api/cc/runs/:id, POST …/cancel.
 *
 * This interface was referenced by `CcRunAnswers`'s JSON-Schema
 * via the `definition` "CcRunAnswer".
 */
export interface CcRunAnswer {
  run: Run
}
/**
 * POST /api/cc/runs/:id/article: the run's draft committed as an article.
 *
 * This interface was referenced by `CcRunAnswers`'s JSON-Schema
 * via the `definition` "CcRunArticle".
 */
export interface CcRunArticle {
  run: Run
  path: string
  commit: Sha
}
