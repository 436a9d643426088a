/**
 * Control-center answers both sides read: the server writes them (server/control-center/api/editor.ts,
 * article-preview.ts), the screens read them (ui/control-center/api-types.ts re-exports them). They sit
 * here, beside the generated types, because server/ may not import ui/ nor ui/ server/
 * (tools/check-imports.ts, docs/decisions/0971). Hand-written until every /api/cc/* answer has a
 * JSON Schema its type is generated from (issue 28).
 */
import type { Article } from '../generated/article'
import type { Funnel } from '../generated/funnel'
import type { Step } from '../generated/step'

export interface DefinitionError {
  file: string
  line: number
  /** The contract says `col`; the server sends `column` (engine/snapshot/types.ts): read either. */
  col?: number
  column?: number
  pointer: string
  message: string
  /** A publish gate that ran out of its time budget (fails closed; an admin may override it, audited). */
  budget?: boolean
}

/** A definition of the branch as an editor reads it: my draft when I have one, else the branch's. */
export interface EditorDoc<T> {
  id: string
  path: string
  /** null when the text is not a JSON object (the Source tab shows why). */
  doc: T | null
  draft: boolean
  errors: DefinitionError[]
}

/** Everything the funnel editor needs in one answer (GET /api/cc/branches/:b/funnel-editor). */
export interface FunnelEditorData {
  head: string
  /** The funnel asked for (`?funnel=`), or the one the page names in `form` (`?page=`); null if none. */
  funnel: string | null
  funnels: EditorDoc<Funnel>[]
  /** The step library, with each shared step's own values (the "inherited" side of an override). */
  steps: EditorDoc<Step>[]
  /** Pages and the funnel each runs, for "Shared by N funnels on M brands". */
  pages: { key: string; form: string | null; brands: string[]; experiment: string | null }[]
}

/** The page editor's lookups (GET /api/cc/branches/:b/page-editor?page=). */
export interface PageEditorData {
  head: string
  /** Public brands, to serve the page on. */
  brands: { id: string; name: string }[]
  funnels: string[]
  experiments: { id: string; status: string; description: string; variants: string[] }[]
  /** What names the page: Delete is refused while this is not empty. */
  references: { file: string; pointer: string; reason: string }[]
  /** The step names of the page's funnel, in order (empty when it runs none). */
  steps: string[]
}

/** A brand that serves articles, and its article page's path pattern (`/reviews/{slug...}`). */
export interface ArticleServing {
  brand: string
  pattern: string
}

/** An article file of the branch as the articles screen lists it (my draft when I have one). */
export interface ArticleRow {
  path: string
  id: string
  state: 'unchanged' | 'added' | 'modified' | 'deleted'
  draft: boolean
  problems: number
  /** null when the text is not a JSON object. */
  article: Article | null
  errors: DefinitionError[]
}

/** GET /api/cc/branches/:b/articles */
export interface ArticleListData {
  head: string
  articles: ArticleRow[]
  authors: { id: string; name: string }[]
  serving: ArticleServing[]
}

/** POST /api/cc/branches/:b/article-preview */
export interface ArticlePreviewData {
  /** The brand and path the preview was rendered for; null when no brand serves articles. */
  brand: string | null
  path: string | null
  /** The article body's HTML exactly as the published page carries it. */
  html: string
  /** The whole article page's HTML, or null when this server cannot render pages (no build). */
  page: string | null
}
