import type { ComponentType } from 'react'
import type { Field } from '../../schemas/generated/field'
import { ChoiceField } from './fields/ChoiceField'
import type { FieldProps } from './fields/field-props'
import { TextField } from './fields/TextField'

/** The renderer for each field kind the schema defines. */
export const FIELD_RENDERERS: Record<Field['kind'], ComponentType<FieldProps>> = {
  text: TextField,
  email: TextField,
  tel: TextField,
  zip: TextField,
  number: TextField,
  'yes-no': ChoiceField,
  choice: ChoiceField,
}
