import type { Field } from '../../schemas/generated/field'

/** Autofill tokens (WHATWG autocomplete) by form value, so browsers and password managers fill them. */
const AUTOCOMPLETE: Partial<Record<Field['name'], string>> = {
  firstName: 'given-name',
  lastName: 'family-name',
  email: 'email',
  phone: 'tel-national',
  address: 'street-address',
  zipcode: 'postal-code',
}

/** The input attributes for a text-like field: type, keyboard on phones, autofill. */
export function inputAttributes(field: Field): {
  type: string
  inputMode?: 'numeric' | 'email' | 'text' | 'tel'
  autoComplete: string
  maxLength?: number
} {
  const autoComplete = AUTOCOMPLETE[field.name] ?? 'off'
  switch (field.kind) {
    case 'email':
      return { type: 'email', inputMode: 'email', autoComplete }
    case 'tel':
      return { type: 'tel', inputMode: 'numeric', autoComplete, maxLength: 14 }
    case 'zip':
      return { type: 'text', inputMode: 'numeric', autoComplete, maxLength: 5 }
    case 'number':
      return { type: 'text', inputMode: 'numeric', autoComplete }
    default:
      return { type: 'text', autoComplete }
  }
}
