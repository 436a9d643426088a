import type { Field } from '../../schemas/generated/field'
import type { ValidationMessages } from '../../schemas/generated/ui-text'
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

/** A message with its {placeholders} filled in. */
export function fillText(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (all, name: string) => (name in params ? String(params[name]) : all))
}

function nameRule(m: ValidationMessages, what: string, v: string): string | undefined {
  const t = v.trim()
  if (t.length < NAME_MIN_LENGTH) return fillText(m.nameTooShort, { what, min: NAME_MIN_LENGTH })
  if (t.length > NAME_MAX_LENGTH) return fillText(m.nameTooLong, { what, max: NAME_MAX_LENGTH })
  return undefined
}

/**
 * The message a person sees for one field, or undefined when the value is fine (spec point 5).
 * Rules follow the field's meaning (its name) where the spec gives one, otherwise its kind; the
 * words come from the funnel's language (definitions/ui-text/<language>.json).
 */
export function validateField(field: Field, value: FieldValue, m: ValidationMessages): string | undefined {
  const required = field.required !== false
  if (isEmpty(value)) {
    if (!required) return undefined
    if (field.kind === 'yes-no') return m.chooseYesNo
    if (field.kind === 'choice') return m.chooseOption
  }
  if (field.kind === 'yes-no') return typeof value === 'boolean' ? undefined : m.chooseYesNo
  const v = typeof value === 'string' ? value : String(value ?? '')
  switch (field.name) {
    case 'firstName':
      return nameRule(m, m.firstName, v)
    case 'lastName':
      return nameRule(m, m.lastName, v)
    case 'address': {
      const t = v.trim()
      if (t.length < ADDRESS_MIN_LENGTH) return m.addressRequired
      if (t.length > ADDRESS_MAX_LENGTH) return fillText(m.addressTooLong, { max: ADDRESS_MAX_LENGTH })
      return undefined
    }
  }
  switch (field.kind) {
    case 'zip':
      return ZIP_PATTERN.test(v.trim()) ? undefined : fillText(m.zip, { length: ZIP_LENGTH })
    case 'email':
      return EMAIL_PATTERN.test(v.trim()) ? undefined : m.email
    case 'tel':
      return PHONE_INPUT_PATTERN.test(v) ? undefined : m.phone
    case 'choice':
      return field.options?.some((o) => o.value === v) ? undefined : m.chooseOption
    case 'number': {
      const n = Number(v.trim())
      const ok =
        /^\d+$/.test(v.trim()) &&
        (field.min === undefined || n >= field.min) &&
        (field.max === undefined || n <= field.max)
      if (ok) return undefined
      if (field.min !== undefined && field.max !== undefined)
        return fillText(m.numberRange, { min: field.min, max: field.max })
      return m.wholeNumber
    }
    default:
      return isEmpty(v) ? fillText(m.required, { label: field.label.toLowerCase() }) : undefined
  }
}

/** Errors for every field of a step; empty when the step may be submitted. */
export function validateStep(
  fields: readonly Field[],
  values: FormValues,
  messages: ValidationMessages,
): FieldErrors {
  const errors: FieldErrors = {}
  for (const f of fields) {
    const message = validateField(f, values[f.name], messages)
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
