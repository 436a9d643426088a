/** The shapes of `/api/cc/*` answers the screens read (docs/control-center-api.md). */
import type { PathDiff } from '../../engine/control-center/gates/path-diff'
import type { StepImpact } from '../../engine/control-center/gates/step-impact'
import type { Article } from '../../schemas/generated/article'
import type { Funnel } from '../../schemas/generated/funnel'
import type { Step } from '../../schemas/generated/step'

export interface StaffUserView {
  id: string
  name: string
  email: string
  role: string
}

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

/** An error's 1-based column, whichever name it came under. */
export const colOf = (e: Pick<DefinitionError, 'col' | 'column'>) => e.col ?? e.column ?? 1

export interface CcStatus {
  user: StaffUserView
  permissions: Record<string, boolean>
  contentSource: 'git' | 'worktree'
  live: { commit: string }
  requireApproval: boolean
}

/** GET /api/cc/live: a refused commit on published, and the one served instead (docs/decisions/0610). */
export interface CcLive {
  content: 'ok' | 'degraded'
  serving: string | null
  refused: { commit: string; errors: string[]; at: string } | null
}

export interface ChangedFile {
  path: string
  kind: string
  id: string
  status: 'added' | 'modified' | 'deleted'
}

export interface Branch {
  name: string
  title: string
  description: string
  status: string
  createdBy: StaffUserView | null
  createdAt: string
  head: string
  baseCommit: string
  lastCommit: {
    sha: string
    subject: string
    author: string | { name: string; email?: string }
    date: string
  } | null
  files: ChangedFile[]
  problems: number
  overlaps: { path: string; branches: string[] }[]
  scheduledAt: string | null
  approvedCommit: string | null
}

export interface PageInfo {
  key: string
  /** null: the page's route is `/<key>`. */
  path: string | null
  aliases?: string[]
  template: string
  brands: string[]
  title?: string | null
  headline?: string | null
  form?: string | null
  experiment: string | null
}

/** The route of a page: its path, or `/<key>` when it names none. */
export const pagePath = (p: PageInfo) => p.path ?? `/${p.key}`

export interface FileRow {
  path: string
  kind: string
  id: string
  state: 'unchanged' | 'added' | 'modified' | 'deleted'
  draft: boolean
  problems: number
  page?: PageInfo
}

export interface FileDoc {
  path: string
  head: string
  blob: string | null
  text: string | null
  draft: { text: string | null; updatedAt: string } | null
  errors: DefinitionError[]
}

export interface Conflict {
  pointer: string
  base: unknown
  theirs: unknown
  mine: unknown
}

export interface FileConflicts {
  path: string
  conflicts: Conflict[]
  /** Whole files on each side (null: absent), on a commit's 409: the merge dialog settles them. */
  texts?: { base: string | null; theirs: string | null; mine: string | null }
}

export interface DiffChange {
  pointer: string
  op: 'add' | 'remove' | 'replace'
  before?: unknown
  after?: unknown
}

export interface Publication {
  id: string
  kind: string
  branch: string | null
  oldCommit: string | null
  newCommit: string
  actor: StaffUserView | null
  at: string
  files: string[]
}

export interface AuditEntry {
  id: string
  at: string
  actor: StaffUserView | null
  action: string
  target: string | null
  /** The target's name when the target is a staff user. */
  targetName: string | null
  details: unknown
  ip: string | null
}

export interface HistoryCommit {
  sha: string
  subject: string
  author: { name: string; email: string }
  date: string
  auditId: string | null
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

export type { FunnelPathDiff, PathDiff, PathEdge } from '../../engine/control-center/gates/path-diff'
export type { ImpactExperiment, ImpactPage, StepImpact } from '../../engine/control-center/gates/step-impact'

/** What publishing a branch changes (engine/gates/publish-gates.ts `GateImpact`). */
export interface GateImpactView {
  paths: PathDiff
  steps: StepImpact[]
}

/** GET /api/cc/branches/:b/checks */
export interface BranchChecks {
  commit: string
  ok: boolean
  /** Validation errors, then the blocking gates' (consent gate, smoke run). */
  errors: DefinitionError[]
  /** Advice that does not block publishing (phone-rule coverage). */
  warnings?: DefinitionError[]
  conflicts?: { path: string; pointers: string[] }[]
  impact?: GateImpactView | null
}

/** GET /api/cc/branches/:b/impact */
export interface BranchImpact {
  commit: string
  ok: boolean
  errors: DefinitionError[]
  conflicts: { path: string; pointers: string[] }[]
  impact: GateImpactView | null
  visits: { days: number; total: number; pages: { page: string; brand: string | null; visits: number }[] }
}

/** A brand that serves articles, and its article page's path pattern (`/reviews/{slug...}`). */
export interface ArticleServing {
  brand: string
  pattern: string
}

/** An article file of the branch as the articles screen lists it (my draft when I have one). */
export interface ArticleRow extends Pick<FileRow, 'path' | 'id' | 'state' | 'draft' | 'problems'> {
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
