/** Shapes of the experiments API (docs/control-center-api.md "Experiments"). */

export type ExperimentStatus = 'draft' | 'running' | 'paused' | 'finished'
export type ExperimentDimension = 'brand' | 'paid' | 'utm_source'

export interface ExperimentVariantDef {
  id: string
  weight: number
  description?: string
  overrides?: {
    headline?: string
    subheadline?: string
    form?: string
    cta?: { label: string; href?: string }
  }
}

export interface ExperimentListRow {
  id: string
  path: string
  invalid?: true
  description?: string
  page?: string | null
  pageTitle?: string | null
  brands?: string[]
  status?: ExperimentStatus | null
  liveStatus?: ExperimentStatus | null
  variants?: { id: string; weight: number }[]
  results?: {
    phase: number
    visitors: number
    enoughData: boolean
    leader: string | null
    chanceToWin: number | null
    srm: { pValue: number; mismatch: boolean }
    computedAt: string
  } | null
}

export interface Srm {
  chiSquare: number
  pValue: number
  mismatch: boolean
}

export interface Comparison {
  lift: number
  interval: [number, number]
  chanceToWin: number
  risk: number
  riskOfControl: number
}

export interface VariantResult {
  id: string
  weight: number
  users: number
  leads: number
  started?: number
  rate: number | null
  vsControl: Comparison | null
  chanceToBeBest: number | null
}

export interface Segment {
  segment: string
  other: boolean
  users: number
  srm: Srm
  enoughData: boolean
  variants: VariantResult[]
}

export interface ExperimentPhase {
  n: number
  from: string | null
  to: string | null
  status: string
  weights: Record<string, number>
}

export interface ExperimentResults {
  experiment: {
    id: string
    page: string
    pagePath: string
    brands: string[]
    status: ExperimentStatus
    description: string
    variants: ExperimentVariantDef[]
  }
  phases: ExperimentPhase[]
  phase: number
  srm: Srm
  enoughData: boolean
  variants: VariantResult[]
  multipleExposures: number
  bots: number
  daily: { day: string; variant: string; users: number }[]
  steps: { variant: string; step: number; users: number }[]
  dimension: ExperimentDimension | null
  segments: Segment[] | null
  computedAt: string
}
