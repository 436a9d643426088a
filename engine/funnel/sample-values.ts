/** Valid and invalid answers per field, for model-based and end-to-end tests of any funnel. */

import type { Field } from '../../schemas/generated/field'
import type { FormValues } from '../runtime-contracts'

const BY_NAME: Partial<Record<Field['name'], string>> = {
  firstName: 'Maria',
  lastName: 'Lopez',
  email: 'maria.lopez@example.com',
  phone: '(555) 201-3344',
  address: '12 Main Street',
  zipcode: '90210',
  vehicleMake: 'Toyota',
}

/** A value every rule accepts; yes-no answers alternate so both branches get exercised by choice. */
export function validValue(field: Field, yes = true): string | boolean {
  switch (field.kind) {
    case 'yes-no':
      return yes
    case 'choice':
      return field.options![0].value
    case 'number':
      return String(field.min ?? 1)
    case 'zip':
      return '90210'
    case 'tel':
      return '(555) 201-3344'
    case 'email':
      return 'maria.lopez@example.com'
    default:
      return BY_NAME[field.name] ?? 'Something'
  }
}

/** A value that fails validation, or undefined when the field accepts anything (optional text). */
export function invalidValue(field: Field): string | undefined {
  switch (field.kind) {
    case 'zip':
      return '123'
    case 'tel':
      return '555-12'
    case 'email':
      return 'maria@'
    case 'number':
      return field.max !== undefined ? String(field.max + 1) : 'many'
    case 'choice':
    case 'yes-no':
      return field.required === false ? undefined : ''
    default:
      if (field.name === 'firstName' || field.name === 'lastName') return 'Al'
      return field.required === false ? undefined : ''
  }
}

export function validStepValues(fields: readonly Field[], yes = true): FormValues {
  return Object.fromEntries(fields.map((f) => [f.name, validValue(f, yes)])) as FormValues
}

/** Values that fail the step, or undefined when nothing the step asks can be wrong. */
export function invalidStepValues(fields: readonly Field[]): FormValues | undefined {
  const bad = fields.map((f) => [f.name, invalidValue(f)] as const).filter(([, v]) => v !== undefined)
  if (bad.length === 0) return undefined
  return { ...validStepValues(fields), ...Object.fromEntries(bad) }
}
