/** The shapes of the content-factory answers the screens read (docs/control-center-api.md "Content factory"). */

export type RunStatus = 'queued' | 'running' | 'validating' | 'succeeded' | 'failed' | 'cancelled'

export const FINAL_STATUSES: readonly RunStatus[] = ['succeeded', 'failed', 'cancelled']
export const isFinal = (s: RunStatus) => FINAL_STATUSES.includes(s)

export interface RunBrief {
  topic: string
  carrier?: string
  angle?: string
  keywords?: string[]
  words?: number
  outline?: string[]
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface ArticleDraft {
  title: string
  description: string
  carrier: string
  slug: string
  body: string[]
}

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
  validation: { errors: string[]; warnings: string[] } | null
  error: string | null
  promptTokens: number | null
  completionTokens: number | null
  createdBy: string
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
  articleId: string | null
  commit: string | null
}

export interface RunList {
  configured: boolean
  model: string | null
  runs: Run[]
}

export interface AuthorPersona {
  voice: string
  audience: string
  expertise?: string[]
  readingLevel?: string
  doNot?: string[]
  temperature?: number
}

export interface AuthorDoc {
  id: string
  name: string
  bio: string
  credentials?: string[]
  persona?: AuthorPersona
}

/** How many generation attempts a run may make (the first plus one repair; engine MAX_REPAIRS + 1). */
export const MAX_ATTEMPTS = 2
