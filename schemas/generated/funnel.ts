/* Generated from schemas/funnel.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

export type Slug = string
/**
 * Id of a document in definitions/steps/.
 */
export type Slug1 = string
/**
 * One input of a step. `name` is one of the form values of spec point 3; `kind` picks the renderer and the validation rule.
 */
export type Field = {
  name: FieldName
  kind: 'text' | 'email' | 'tel' | 'zip' | 'yes-no' | 'choice' | 'number'
  label: string
  hint?: string
  placeholder?: string
  required?: boolean
  /**
   * Choices for kind `choice`.
   *
   * @minItems 2
   */
  options?: [
    {
      value: string
      label: string
    },
    {
      value: string
      label: string
    },
    ...{
      value: string
      label: string
    }[]
  ]
  /**
   * Smallest value for kind `number`.
   */
  min?: number
  /**
   * Largest value for kind `number`.
   */
  max?: number
}
/**
 * This interface was referenced by `undefined`'s JSON-Schema
 * via the `definition` "FieldName".
 */
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
