/* Generated from schemas/action.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

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
 * A named predicate the engine evaluates; definitions never hold code.
 */
export type Condition =
  AnswerEqualsCondition | AnswerInCondition | LowBidCondition | NotCondition | AllAnyCondition
export type FieldName =
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phone'
  | 'address'
  | 'zipcode'
  | 'currentlyInsured'
  | 'insuranceCompany'
  | 'vehicleAmount'
  | 'vehicleMake'
  | 'homeowner'
  | 'creditRating'
  | 'haveMedicare'
  | 'haveMedicaid'

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
export interface AnswerEqualsCondition {
  type: 'answer-equals'
  field: FieldName
  value: string | boolean | number
}
export interface AnswerInCondition {
  type: 'answer-in'
  field: FieldName
  /**
   * @minItems 1
   */
  values: [string | boolean | number, ...(string | boolean | number)[]]
}
export interface LowBidCondition {
  type: 'low-bid' | 'not-low-bid'
}
export interface NotCondition {
  type: 'not'
  condition: Condition
}
export interface AllAnyCondition {
  type: 'all' | 'any'
  /**
   * @minItems 1
   */
  conditions: [Condition, ...Condition[]]
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
