/* Generated from schemas/cc-answers/experiments.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { CommitMade, Publication, PublicationKind, Sha } from './common'
export type { CommitMade, Publication, PublicationKind, Sha }
import type { Image, Slug } from '../common'
export type { Image, Slug }

/**
 * An experiment's status, as schemas/experiment.schema.json has it (tsc refuses a server answer when the two part).
 *
 * This interface was referenced by `CcExperimentAnswers`'s JSON-Schema
 * via the `definition` "ExperimentStatus".
 */
export type ExperimentStatus = 'draft' | 'running' | 'paused' | 'finished'
/**
 * This interface was referenced by `CcExperimentAnswers`'s JSON-Schema
 * via the `definition` "ExperimentDimension".
 */
export type ExperimentDimension = 'brand' | 'paid' | 'utm_source'
/**
 * Answers of the experiments API (server/api/control-center/experiments.ts, issue 16): the list of a branch, results with their statistics, and decisions as commits. Each property names one answer.
 */
export interface CcExperimentAnswers {
  CcExperimentList?: CcExperimentList
  ExperimentResults?: ExperimentResults
  CcExperimentCreated?: CcExperimentCreated
  CommitMade?: CommitMade
  CcEmergencyPaused?: CcEmergencyPaused
}
/**
 * GET /api/cc/experiments?branch=.
 *
 * This interface was referenced by `CcExperimentAnswers`'s JSON-Schema
 * via the `definition` "CcExperimentList".
 */
export interface CcExperimentList {
  branch: string
  head: Sha
  experiments: ExperimentListRow[]
}
/**
 * An experiment file of the branch: its definition (read leniently), its page, and results from live. A file that is not a JSON object is only `invalid`.
 *
 * This interface was referenced by `CcExperimentAnswers`'s JSON-Schema
 * via the `definition` "ExperimentListRow".
 */
export interface ExperimentListRow {
  id: string
  path: string
  description?: string
  page?: string | null
  pageTitle?: string | null
  brands?: string[]
  status?: ExperimentStatus | null
  liveStatus?: ExperimentStatus | null
  variants?: {
    id: string
    weight: number
  }[]
  results?: {
    phase: number
    visitors: number
    enoughData: boolean
    leader: string | null
    chanceToWin: number | null
    srm: {
      pValue: number
      mismatch: boolean
    }
    computedAt: string
  } | null
  /**
   * The file is not a JSON object: the row has only id, path and this.
   */
  invalid?: true
}
/**
 * GET /api/cc/experiments/:id/results (`?phase=&dimension=&refresh`): the published experiment's results for a phase.
 *
 * This interface was referenced by `CcExperimentAnswers`'s JSON-Schema
 * via the `definition` "ExperimentResults".
 */
export interface ExperimentResults {
  experiment: {
    id: string
    page: string
    pagePath: string
    brands: string[]
    status: ExperimentStatus
    description: string
    variants: ExperimentVariant[]
  }
  phases: ExperimentPhase[]
  phase: number
  srm: Srm
  enoughData: boolean
  variants: VariantResult[]
  /**
   * Browsers left out because they saw more than one variant.
   */
  multipleExposures: number
  bots: number
  /**
   * Exposures per UTC day and variant.
   */
  daily: {
    day: string
    variant: string
    users: number
  }[]
  /**
   * Per variant, how many browsers submitted funnel step n or a later one.
   */
  steps: {
    variant: string
    step: number
    users: number
  }[]
  dimension: ExperimentDimension | null
  segments: Segment[] | null
  computedAt: string
}
export interface ExperimentVariant {
  id: Slug
  /**
   * Share of visitors in percent.
   */
  weight: number
  description?: string
  overrides?: ExperimentOverrides
}
/**
 * Page fields this variant changes.
 */
export interface ExperimentOverrides {
  headline?: string
  subheadline?: string
  image?: Image
  form?: string
  cta?: {
    label: string
    href?: string
  }
}
/**
 * A stretch between publications that changed the experiment's status or variants (docs/decisions/0900).
 *
 * This interface was referenced by `CcExperimentAnswers`'s JSON-Schema
 * via the `definition` "ExperimentPhase".
 */
export interface ExperimentPhase {
  /**
   * 1-based, oldest first.
   */
  n: number
  from: string | null
  to: string | null
  status: string
  weights: {
    [k: string]: number
  }
}
/**
 * Sample-ratio mismatch: Pearson's χ² of the users per variant against the weights (engine/experiments/stats.ts).
 *
 * This interface was referenced by `CcExperimentAnswers`'s JSON-Schema
 * via the `definition` "Srm".
 */
export interface Srm {
  chiSquare: number
  pValue: number
  mismatch: boolean
}
/**
 * This interface was referenced by `CcExperimentAnswers`'s JSON-Schema
 * via the `definition` "VariantResult".
 */
export interface VariantResult {
  id: string
  weight: number
  users: number
  leads: number
  /**
   * Browsers that started the funnel.
   */
  started?: number
  rate: number | null
  vsControl: Comparison | null
  chanceToBeBest: number | null
}
/**
 * A variant against control (engine/experiments/stats.ts).
 *
 * This interface was referenced by `CcExperimentAnswers`'s JSON-Schema
 * via the `definition` "Comparison".
 */
export interface Comparison {
  /**
   * Relative lift (pT − pC)/pC.
   */
  lift: number
  /**
   * 95 % credible interval of the lift.
   *
   * @minItems 2
   */
  interval: [number, number]
  chanceToWin: number
  risk: number
  riskOfControl: number
}
/**
 * A drill-down segment: the ten largest by users, the rest folded into one `other`.
 *
 * This interface was referenced by `CcExperimentAnswers`'s JSON-Schema
 * via the `definition` "Segment".
 */
export interface Segment {
  segment: string
  other: boolean
  users: number
  srm: Srm
  enoughData: boolean
  variants: VariantResult[]
}
/**
 * POST /api/cc/branches/:b/experiments (201): the new experiment's commit and file.
 *
 * This interface was referenced by `CcExperimentAnswers`'s JSON-Schema
 * via the `definition` "CcExperimentCreated".
 */
export interface CcExperimentCreated {
  commit: Sha
  parent: Sha
  paths: string[]
  path: string
}
/**
 * POST /api/cc/experiments/:id/emergency-pause: paused on live at once, as a publication.
 *
 * This interface was referenced by `CcExperimentAnswers`'s JSON-Schema
 * via the `definition` "CcEmergencyPaused".
 */
export interface CcEmergencyPaused {
  branch: string
  commit: Sha
  publication: Publication
}