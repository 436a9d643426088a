/* Generated from schemas/action.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { AllAnyCondition, AnswerEqualsCondition, AnswerInCondition, Condition, FieldName, LowBidCondition, NotCondition } from './condition'
export type { AllAnyCondition, AnswerEqualsCondition, AnswerInCondition, Condition, FieldName, LowBidCondition, NotCondition }

/**
 * A step or page action from a small typed vocabulary. A list runs in order; a `stay`, `go-to-step`, `go-to-page` or `finish` whose condition holds ends the list.
 */
export type Action = SingleAction[] | SingleAction
export type SingleAction =
  | DemandCheckAction
  | TrackAction
  | SetFieldAction
  | GoToStepAction
  | GoToPageAction
  | StayAction
  | FinishAction
/**
 * Ask the ad marketplace for demand (spec point 7); the bid and isLowBid become available to later conditions.
 */
export interface DemandCheckAction {
  type: 'demand-check'
}
/**
 * Emit an analytics event.
 */
export interface TrackAction {
  type: 'track'
  event: string
  properties?: {
    [k: string]: string | number | boolean | null
  }
  when?: Condition
}
export interface SetFieldAction {
  type: 'set-field'
  field: FieldName
  value: string | boolean
  when?: Condition
}
/**
 * Route to another step of the same funnel (by step name) when the condition holds.
 */
export interface GoToStepAction {
  type: 'go-to-step'
  step: string
  when?: Condition
}
/**
 * Leave the funnel for another page (relative path) when the condition holds.
 */
export interface GoToPageAction {
  type: 'go-to-page'
  path: string
  when?: Condition
}
/**
 * Stop advancing (the spec's on-submit returning false) when the condition holds.
 */
export interface StayAction {
  type: 'stay'
  when?: Condition
}
/**
 * Finish the funnel now, going to the page's destination.
 */
export interface FinishAction {
  type: 'finish'
  when?: Condition
}
