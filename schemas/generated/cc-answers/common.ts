/* Generated from schemas/cc-answers/common.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * A full commit (or blob) sha of the content repository.
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "Sha".
 */
export type Sha = string
/**
 * A definition kind by the file's folder; `asset` is a public file under ui/public/images (an uploaded image's WebP).
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "FileKind".
 */
export type FileKind =
  | 'site'
  | 'brand'
  | 'page'
  | 'funnel'
  | 'step'
  | 'experiment'
  | 'article'
  | 'author'
  | 'phoneRule'
  | 'consent'
  | 'uiText'
  | 'image'
  | 'asset'
  | 'other'
/**
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "BranchStatus".
 */
export type BranchStatus = 'open' | 'in_review' | 'approved' | 'published' | 'archived'
/**
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "FileState".
 */
export type FileState = 'unchanged' | 'added' | 'modified' | 'deleted'
/**
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "PublicationKind".
 */
export type PublicationKind =
  'publish' | 'rollback' | 'scheduled' | 'import' | 'emergency' | 'push' | 'outside'

/**
 * What several /api/cc/* answers share (docs/control-center-api.md): people, commits, branches, files, errors at their pointers, diffs and conflicts.
 */
export interface CcAnswerDefinitions {
  [k: string]: unknown
}
/**
 * A staff user as answers name one. A user the server no longer knows reads as its id with empty email and role.
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "StaffUserView".
 */
export interface StaffUserView {
  id: string
  name: string
  email: string
  role: string
}
/**
 * A problem of a definition file at its JSON pointer, with the line and column the pointer is on (engine/snapshot/types.ts).
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "DefinitionError".
 */
export interface DefinitionError {
  /**
   * Path in the content repository, e.g. definitions/pages/grocery.json.
   */
  file: string
  /**
   * 1-based; 0 when the problem has no place in the file's text.
   */
  line: number
  /**
   * 1-based; 0 with line 0.
   */
  column: number
  /**
   * JSON pointer of the value at fault ("" for the whole document).
   */
  pointer: string
  message: string
  /**
   * A publish gate that ran out of its time budget: it fails closed; an admin may override it, audited.
   */
  budget?: true
}
/**
 * A file a branch changes against live.
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "ChangedFile".
 */
export interface ChangedFile {
  path: string
  kind: FileKind
  /**
   * The document id: the file name without .json.
   */
  id: string
  status: 'added' | 'modified' | 'deleted'
}
/**
 * A branch as the branches list and screen show it (server/content/branch-queries.ts).
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "Branch".
 */
export interface Branch {
  name: string
  title: string
  description: string
  status: BranchStatus
  createdBy: StaffUserView | null
  createdAt: string | null
  head: Sha
  baseCommit: Sha | null
  lastCommit: {
    sha: Sha
    subject: string
    author: string
    date: string
  } | null
  files: ChangedFile[]
  /**
   * Validation errors of the branch head (with my drafts).
   */
  problems: number
  /**
   * Files other open branches change too.
   */
  overlaps: {
    path: string
    branches: string[]
  }[]
  scheduledAt: string | null
  approvedCommit: Sha | null
  approvedBy: StaffUserView | null
}
/**
 * One branch: POST /api/cc/branches, GET and PATCH /api/cc/branches/:b, POST …/reviews, DELETE …/schedule.
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "BranchAnswer".
 */
export interface BranchAnswer {
  branch: Branch
}
/**
 * What the file list tells about a page file (read leniently: a draft may not be valid yet).
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "PageInfo".
 */
export interface PageInfo {
  key: string
  /**
   * null: the page's route is `/<key>`.
   */
  path: string | null
  aliases: string[]
  template: string | null
  brands: string[]
  title: string | null
  headline: string | null
  /**
   * The funnel the page runs.
   */
  form: string | null
  /**
   * The running experiment on the page.
   */
  experiment: string | null
}
/**
 * A definition file of a branch with my drafts laid over, and its state against live.
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "FileRow".
 */
export interface FileRow {
  path: string
  kind: FileKind
  id: string
  state: FileState
  /**
   * I have a draft of it.
   */
  draft: boolean
  problems: number
  page?: PageInfo
}
/**
 * One field a change touches, by JSON pointer (engine/content/json-diff.ts FieldChange).
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "DiffChange".
 */
export interface DiffChange {
  pointer: string
  op: 'add' | 'remove' | 'replace'
  before?: unknown
  after?: unknown
}
/**
 * A changed file with its changes field by field (none for a file that is not JSON: `binary`).
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "FileDiff".
 */
export interface FileDiff {
  path: string
  kind: FileKind
  id: string
  status: 'added' | 'modified' | 'deleted'
  changes: DiffChange[]
  binary?: boolean
}
/**
 * A field both sides changed: its value at the merge base, theirs and mine (null: absent).
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "Conflict".
 */
export interface Conflict {
  pointer: string
  base: unknown
  theirs: unknown
  mine: unknown
}
/**
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "FileConflicts".
 */
export interface FileConflicts {
  path: string
  conflicts: Conflict[]
  /**
   * Whole files on each side (null: absent), on a commit's 409: the merge dialog settles them.
   */
  texts?: {
    base: string | null
    theirs: string | null
    mine: string | null
  }
}
/**
 * A move of live (server/content/publisher.ts): publish, rollback, scheduled publish, import or emergency pause; `push` (git push) and `outside` (the ref moved by hand on the server) are moves no publication made, recorded when noticed (docs/decisions/0620).
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "Publication".
 */
export interface Publication {
  id: string
  oldCommit: Sha | null
  newCommit: Sha
  branch: string | null
  kind: PublicationKind
  fastForward: boolean
}
/**
 * A commit made on a branch: its parent (the expected head) and the files it wrote.
 *
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "CommitMade".
 */
export interface CommitMade {
  commit: Sha
  parent: Sha
  paths: string[]
}
/**
 * This interface was referenced by `CcAnswerDefinitions`'s JSON-Schema
 * via the `definition` "LiveCommit".
 */
export interface LiveCommit {
  commit: Sha
}
