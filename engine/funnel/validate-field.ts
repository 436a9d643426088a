import type { Field } from '../../schemas/generated/field'
import {
  ADDRESS_MAX_LENGTH,
  ADDRESS_MIN_LENGTH,
  NAME_MAX_LENGTH,
  NAME_MIN_LENGTH,
  PHONE_INPUT_PATTERN,
  ZIP_LENGTH,
} from '../constants'
import type { FormValues } from '../runtime-contracts'
import { EMAIL_PATTERN, ZIP_PATTERN } from '../validation/text-rules'

export type FieldValue = string | boolean | undefined
export type FieldErrors = Partial<Record<Field['name'], string>>

function isEmpty(v: FieldValue): boolean {
  return v === undefined || (typeof v === 'string' && v.trim() === '')
}

function nameRule(which: string, v: string): string | undefined {
  const t = v.trim()
  if (t.length < NAME_MIN_LENGTH) return `Enter your ${which} (at least ${NAME_MIN_LENGTH} letters)`
  if (t.length > NAME_MAX_LENGTH) return `Your ${which} can be at most ${NAME_MAX_LENGTH} characters`
  return undefined
}

/**
 * The message a person sees for one field, or undefined when the value is fine (spec point 5).
 * Rules follow the field's meaning (its name) where the spec gives one, otherwise its kind.
 */
export function validateField(field: Field, value: FieldValue): string | undefined {
  const required = field.required !== false
  if (isEmpty(value)) {
    if (!required) return undefined
    if (field.kind === 'yes-no') return 'Choose Yes or No'
    if (field.kind === 'choice') return 'Choose one of the options'
  }
  if (field.kind === 'yes-no') return typeof value === 'boolean' ? undefined : 'Choose Yes or No'
  const v = typeof value === 'string' ? value : String(value ?? '')
  switch (field.name) {
    case 'firstName':
      return nameRule('first name', v)
    case 'lastName':
      return nameRule('last name', v)
    case 'address': {
      const t = v.trim()
      if (t.length < ADDRESS_MIN_LENGTH) return 'Enter your street address'
      if (t.length > ADDRESS_MAX_LENGTH) return `Your address can be at most ${ADDRESS_MAX_LENGTH} characters`
      return undefined
    }
  }
  switch (field.kind) {
    case 'zip':
      return ZIP_PATTERN.test(v.trim()) ? undefined : `Enter a ${ZIP_LENGTH}-digit ZIP code`
    case 'email':
      return EMAIL_PATTERN.test(v.trim()) ? undefined : 'Enter an email address like name@example.com'
    case 'tel':
      return PHONE_INPUT_PATTERN.test(v) ? undefined : 'Enter a 10-digit phone number, like (555) 123-4567'
    case 'choice':
      return field.options?.some((o) => o.value === v) ? undefined : 'Choose one of the options'
    case 'number': {
      const n = Number(v.trim())
      const ok =
        /^\d+$/.test(v.trim()) &&
        (field.min === undefined || n >= field.min) &&
        (field.max === undefined || n <= field.max)
      if (ok) return undefined
      if (field.min !== undefined && field.max !== undefined)
        return `Enter a number from ${field.min} to ${field.max}`
      return 'Enter a whole number'
    }
    default:
      return isEmpty(v) ? `Enter your ${field.label.toLowerCase()}` : undefined
  }
}

/** Errors for every field of a step; empty when the step may be submitted. */
export function validateStep(fields: readonly Field[], values: FormValues): FieldErrors {
  const errors: FieldErrors = {}
  for (const f of fields) {
    const message = validateField(f, values[f.name])
    if (message) errors[f.name] = message
  }
  return errors
}

/** The values a skipped step submits: every field emptied (spec point 2). */
export function emptiedValues(fields: readonly Field[]): FormValues {
  return Object.fromEntries(fields.map((f) => [f.name, ''])) as FormValues
}

/** Only this step's fields, with text trimmed — what a submit stores and reports. */
export function stepValues(fields: readonly Field[], values: FormValues): FormValues {
  const out: FormValues = {}
  for (const f of fields) {
    const v = values[f.name]
    out[f.name] = typeof v === 'string' ? v.trim() : (v ?? '')
  }
  return out
}
