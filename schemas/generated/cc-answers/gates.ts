/* Generated from schemas/cc-answers/gates.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { DefinitionError, Sha } from './common'
export type { DefinitionError, Sha }

/**
 * Fields the branch and live both changed since they parted, by file.
 *
 * This interface was referenced by `CcGateAnswers`'s JSON-Schema
 * via the `definition` "LiveConflicts".
 */
export type LiveConflicts = {
  path: string
  pointers: string[]
}[]

/**
 * The publish gates' answers (server/api/control-center/gates.ts) and what the checks share with them: path diff and shared-step impact (engine/gates). Each property names one answer.
 */
export interface CcGateAnswers {
  BranchImpact?: BranchImpact
}
/**
 * GET /api/cc/branches/:b/impact: the Impact tab, with last week's visits per page and brand.
 *
 * This interface was referenced by `CcGateAnswers`'s JSON-Schema
 * via the `definition` "BranchImpact".
 */
export interface BranchImpact {
  commit: Sha
  ok: boolean
  errors: DefinitionError[]
  conflicts: LiveConflicts
  impact: GateImpact | null
  visits: {
    days: number
    total: number
    pages: PageVisits[]
  }
}
/**
 * What publishing a branch changes (engine/gates/publish-gates.ts).
 *
 * This interface was referenced by `CcGateAnswers`'s JSON-Schema
 * via the `definition` "GateImpact".
 */
export interface GateImpact {
  paths: PathDiff
  steps: StepImpact[]
}
/**
 * This interface was referenced by `CcGateAnswers`'s JSON-Schema
 * via the `definition` "PathDiff".
 */
export interface PathDiff {
  funnels: FunnelPathDiff[]
}
/**
 * This interface was referenced by `CcGateAnswers`'s JSON-Schema
 * via the `definition` "FunnelPathDiff".
 */
export interface FunnelPathDiff {
  funnel: string
  file: string
  /**
   * `added` when live has no such funnel.
   */
  status: 'added' | 'changed'
  /**
   * The candidate's graph, every edge marked, for drawing.
   */
  edges: MarkedPathEdge[]
  edgesAdded: PathEdge[]
  edgesRemoved: PathEdge[]
  /**
   * Paths both versions have whose end differs.
   */
  endsChanged: {
    path: string
    before: string
    after: string
  }[]
  pathsAdded: string[]
  pathsRemoved: string[]
  /**
   * Steps no visitor can reach now that could before (or are new).
   */
  newUnreachable: string[]
  /**
   * Steps that keep the visitor on them whatever the answer, now (and did not before).
   */
  newDeadEnds: string[]
  /**
   * Set when exploring ran past the budget: the diff is then incomplete.
   */
  incomplete?: string
}
/**
 * This interface was referenced by `CcGateAnswers`'s JSON-Schema
 * via the `definition` "MarkedPathEdge".
 */
export interface MarkedPathEdge {
  from: string
  answer: string
  action: string
  to: string
  change: 'added' | 'removed' | 'same'
}
/**
 * This interface was referenced by `CcGateAnswers`'s JSON-Schema
 * via the `definition` "PathEdge".
 */
export interface PathEdge {
  from: string
  /**
   * `answer`, `no`, `skip`, `field=value`, or `any answer` when yes and no go the same way.
   */
  answer: string
  /**
   * `next`, `stay`, `go-to-step`, `finish`, `go-to-page /x`.
   */
  action: string
  /**
   * A step name, `destination /x`, `page /x` or `refused`.
   */
  to: string
}
/**
 * What a shared step's change reaches (CONTROL-CENTER §7 item 3).
 *
 * This interface was referenced by `CcGateAnswers`'s JSON-Schema
 * via the `definition` "StepImpact".
 */
export interface StepImpact {
  step: string
  file: string
  status: 'added' | 'changed' | 'removed'
  /**
   * Top-level fields of the step document that changed.
   */
  changedFields: string[]
  /**
   * Funnels that resolve differently because of the change.
   */
  funnels: string[]
  /**
   * Funnels that use the step but whose overrides shadow every changed field.
   */
  shadowed: string[]
  pages: ImpactPage[]
  brands: string[]
  experiments: ImpactExperiment[]
  /**
   * "Shared by 3 funnels on 4 brands".
   */
  summary: string
}
/**
 * This interface was referenced by `CcGateAnswers`'s JSON-Schema
 * via the `definition` "ImpactPage".
 */
export interface ImpactPage {
  page: string
  path: string
  brands: string[]
  funnel: string
  /**
   * Set when the page runs the funnel only in an experiment variant.
   */
  experiment?: {
    id: string
    variant: string
    status: string
  }
}
/**
 * This interface was referenced by `CcGateAnswers`'s JSON-Schema
 * via the `definition` "ImpactExperiment".
 */
export interface ImpactExperiment {
  id: string
  page: string
  status: string
  variants: {
    id: string
    weight: number
    form?: string
  }[]
}
export interface PageVisits {
  page: string
  /**
   * null for events without one.
   */
  brand: string | null
  visits: number
}
