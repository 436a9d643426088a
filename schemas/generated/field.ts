/* Generated from schemas/field.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { FieldName } from './condition'
export type { FieldName }

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