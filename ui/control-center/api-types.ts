/** The shapes of `/api/cc/*` answers the screens read (docs/control-center-api.md). */
import type { PathDiff } from '../../engine/control-center/gates/path-diff'
import type { StepImpact } from '../../engine/control-center/gates/step-impact'
import type { DefinitionError } from '../../schemas/cc-answers/editor-types'

export type {
  ArticleListData,
  ArticlePreviewData,
  ArticleRow,
  ArticleServing,
  DefinitionError,
  EditorDoc,
  FunnelEditorData,
  PageEditorData,
} from '../../schemas/cc-answers/editor-types'

export interface StaffUserView {
  id: string
  name: string
  email: string
  role: string
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
