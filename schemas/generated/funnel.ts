/* Generated from schemas/funnel.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Slug } from './common'
export type { Slug }
import type { Field } from './field'
export type { Field }
import type { AllAnyCondition, AnswerEqualsCondition, AnswerInCondition, Condition, FieldName, LowBidCondition, NotCondition } from './condition'
export type { AllAnyCondition, AnswerEqualsCondition, AnswerInCondition, Condition, FieldName, LowBidCondition, NotCondition }
import type { Action, DemandCheckAction, FinishAction, GoToPageAction, GoToStepAction, SetFieldAction, SingleAction, StayAction, TrackAction } from './action'
export type { Action, DemandCheckAction, FinishAction, GoToPageAction, GoToStepAction, SetFieldAction, SingleAction, StayAction, TrackAction }
/**
 * Id of a document in definitions/steps/.
 */
export type Slug1 = string
/**
 * A multi-step quote form: an ordered list of steps and a form version (spec points 2 and 4). A page uses it through its `form` field.
 */
export interface Funnel {
  $schema?: string
  id: Slug
  /**
   * Answers are kept per form version; change it when the meaning of the answers changes.
   */
  formVersion: string
  description?: string
  /**
   * The language of the funnel's steps; its buttons and validation messages come from definitions/ui-text/<language>.json, and every page using the funnel must be in the same language.
   */
  language?: 'english' | 'es'
  /**
   * @minItems 1
   */
  steps: [FunnelStep, ...FunnelStep[]]
}
export interface FunnelStep {
  step: Slug1
  overrides?: StepOverrides
}
export interface StepOverrides {
  name?: string
  title?: string
  subtitle?: string
  fields?: Field[]
  submitLabel?: string
  skippable?: boolean
  onEnter?: Action
  onSubmit?: Action
}