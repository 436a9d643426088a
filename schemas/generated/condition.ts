/* Generated from schemas/condition.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

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
