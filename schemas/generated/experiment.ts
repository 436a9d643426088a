/* Generated from schemas/experiment.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Image, Slug } from './common'
export type { Image, Slug }

export type Slug1 = string

/**
 * An A/B test on one page (definitions/experiments/<id>.json). Variant weights sum to 100.
 */
export interface Experiment {
  $schema?: string
  id: Slug
  /**
   * What is tested and why.
   */
  description: string
  /**
   * Key of the page under test.
   */
  page: string
  status: 'draft' | 'running' | 'paused' | 'finished'
  /**
   * @minItems 2
   */
  variants: [ExperimentVariant, ExperimentVariant, ...ExperimentVariant[]]
}
export interface ExperimentVariant {
  id: Slug1
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