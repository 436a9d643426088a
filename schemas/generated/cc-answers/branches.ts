/* Generated from schemas/cc-answers/branches.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Branch, BranchAnswer, BranchStatus, ChangedFile, DefinitionError, DiffChange, FileDiff, FileKind, FileRow, FileState, LiveCommit, PageInfo, Sha, StaffUserView } from './common'
export type { Branch, BranchAnswer, BranchStatus, ChangedFile, DefinitionError, DiffChange, FileDiff, FileKind, FileRow, FileState, LiveCommit, PageInfo, Sha, StaffUserView }
import type { FunnelPathDiff, GateImpact, ImpactExperiment, ImpactPage, LiveConflicts, MarkedPathEdge, PathDiff, PathEdge, StepImpact } from './gates'
export type { FunnelPathDiff, GateImpact, ImpactExperiment, ImpactPage, LiveConflicts, MarkedPathEdge, PathDiff, PathEdge, StepImpact }

/**
 * Answers of the branch API (server/api/control-center/branches.ts): status, branches, files, drafts, commits, diff, checks, history, Update from live. Each property names one answer; the routes declare theirs by that name.
 */
export interface CcBranchAnswers {
  CcStatus?: CcStatus
  CcBranchList?: CcBranchList
  BranchAnswer?: BranchAnswer
  CcBranchArchived?: CcBranchArchived
  CcFileList?: CcFileList
  FileDoc?: FileDoc
  CcDraftList?: CcDraftList
  CcDraftSaved?: CcDraftSaved
  CcDraftDiscarded?: CcDraftDiscarded
  CcCommitted?: CcCommitted
  CcDiff?: CcDiff
  BranchChecks?: BranchChecks
  CcProblems?: CcProblems
  CcHistory?: CcHistory
  CcMergedLive?: CcMergedLive
}
/**
 * GET /api/cc/status: who I am, what I may do, and how this server runs.
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "CcStatus".
 */
export interface CcStatus {
  user: StaffUserView
  /**
   * Each staff action (engine/content/permissions.ts STAFF_ACTIONS): may I.
   */
  permissions: {
    [k: string]: boolean
  }
  contentSource: 'git' | 'worktree'
  live: LiveCommit
  requireApproval: boolean
}
/**
 * GET /api/cc/branches (`?archived=1`: the archived ones).
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "CcBranchList".
 */
export interface CcBranchList {
  live: LiveCommit
  branches: Branch[]
}
/**
 * DELETE /api/cc/branches/:b: the branch is archived under a ref of its own.
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "CcBranchArchived".
 */
export interface CcBranchArchived {
  branch: {
    name: string
    status: 'archived'
    head: Sha
    archivedRef: string
  }
}
/**
 * GET /api/cc/branches/:b/files (`?kind=`): every definition file with my drafts laid over.
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "CcFileList".
 */
export interface CcFileList {
  head: Sha
  files: FileRow[]
}
/**
 * GET /api/cc/branches/:b/file?path=: the committed text, my draft and the errors at their pointers.
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "FileDoc".
 */
export interface FileDoc {
  path: string
  kind: FileKind
  id: string
  head: Sha
  /**
   * null: the file is only in my draft.
   */
  blob: Sha | null
  text: string | null
  draft: {
    /**
     * null: my draft deletes the file.
     */
    text: string | null
    updatedAt: string
  } | null
  errors: DefinitionError[]
}
/**
 * GET /api/cc/branches/:b/drafts: my drafts on the branch.
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "CcDraftList".
 */
export interface CcDraftList {
  drafts: {
    path: string
    updatedAt: string
    deleted: boolean
  }[]
  draftsHash: string
}
/**
 * PUT /api/cc/branches/:b/drafts?path=: the draft is saved; the file's errors and the branch's problem count with it.
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "CcDraftSaved".
 */
export interface CcDraftSaved {
  draftsHash: string
  errors: DefinitionError[]
  problems: number
}
/**
 * DELETE /api/cc/branches/:b/drafts?path=.
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "CcDraftDiscarded".
 */
export interface CcDraftDiscarded {
  draftsHash: string
}
/**
 * POST /api/cc/branches/:b/commits (201): my drafts as one commit; `merged`: files whose concurrent changes were merged field by field.
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "CcCommitted".
 */
export interface CcCommitted {
  commit: Sha
  parent: Sha
  merged: string[]
  paths: string[]
}
/**
 * GET /api/cc/branches/:b/diff (against the merge base with live) and GET /api/cc/publications/:id/diff (base null: the first publication).
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "CcDiff".
 */
export interface CcDiff {
  base: Sha | null
  head: Sha
  files: FileDiff[]
}
/**
 * GET /api/cc/branches/:b/checks: what publishing the branch now would meet.
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "BranchChecks".
 */
export interface BranchChecks {
  commit: Sha
  ok: boolean
  /**
   * Validation errors, then the blocking gates' (consent gate, smoke run).
   */
  errors: DefinitionError[]
  /**
   * Advice that does not block publishing (phone-rule coverage).
   */
  warnings: DefinitionError[]
  conflicts: LiveConflicts
  impact: GateImpact | null
}
/**
 * GET /api/cc/branches/:b/problems: every validation error of the branch with my drafts laid over.
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "CcProblems".
 */
export interface CcProblems {
  commit: Sha
  draftsHash: string
  errors: DefinitionError[]
}
/**
 * GET /api/cc/branches/:b/history (`?path=`: the commits that changed that file): first-parent commits, newest first.
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "CcHistory".
 */
export interface CcHistory {
  head: Sha
  commits: HistoryCommit[]
}
/**
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "HistoryCommit".
 */
export interface HistoryCommit {
  sha: Sha
  subject: string
  author: {
    name: string
    email: string
  }
  date: string
  /**
   * The commit's Audit-Id trailer.
   */
  auditId: string | null
}
/**
 * POST /api/cc/branches/:b/merge-live: live merged into the branch (`upToDate`: nothing to merge).
 *
 * This interface was referenced by `CcBranchAnswers`'s JSON-Schema
 * via the `definition` "CcMergedLive".
 */
export interface CcMergedLive {
  commit: Sha
  merged: string[]
  upToDate?: boolean
}
