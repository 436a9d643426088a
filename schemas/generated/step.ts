/* Generated from schemas/step.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { Slug } from './common'
export type { Slug }
import type { Field } from './field'
export type { Field }
import type { AllAnyCondition, AnswerEqualsCondition, AnswerInCondition, Condition, FieldName, LowBidCondition, NotCondition } from './condition'
export type { AllAnyCondition, AnswerEqualsCondition, AnswerInCondition, Condition, FieldName, LowBidCondition, NotCondition }
import type { Action, DemandCheckAction, FinishAction, GoToPageAction, GoToStepAction, SetFieldAction, SingleAction, StayAction, TrackAction } from './action'
export type { Action, DemandCheckAction, FinishAction, GoToPageAction, GoToStepAction, SetFieldAction, SingleAction, StayAction, TrackAction }
/**
 * A reusable form step (definitions/steps/<id>.json). Funnels list steps by id and may override any top-level field.
 */
export interface Step {
  $schema?: string
  id: Slug
  /**
   * The step's URL segment and its name in events.
   */
  name: string
  /**
   * The question shown to the visitor.
   */
  title: string
  subtitle?: string
  fields: Field[]
  submitLabel?: string
  /**
   * Show a skip link that submits the step with all values emptied.
   */
  skippable?: boolean
  onEnter?: Action
  onSubmit?: Action
}