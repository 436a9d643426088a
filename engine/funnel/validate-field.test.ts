import { describe, expect, it } from 'vitest'
import english from '../../definitions/ui-text/english.json' with { type: 'json' }
import spanish from '../../definitions/ui-text/es.json' with { type: 'json' }
import type { Field } from '../../schemas/generated/field'
import { maskPhone } from './phone-mask'
import { emptiedValues, fillText, validateField as validateIn, validateStep } from './validate-field'

const validateField = (field: Field, value: string | boolean | undefined) =>
  validateIn(field, value, english.messages)

const f = (name: Field['name'], kind: Field['kind'], extra: Partial<Field> = {}): Field =>
  ({ name, kind, label: name, ...extra }) as Field

describe('validateField: spec point 5 with messages for a person', () => {
  it('names are 3 to 64 characters', () => {
    expect(validateField(f('firstName', 'text'), 'Al')).toBe('Enter your first name (at least 3 letters)')
    expect(validateField(f('lastName', 'text'), 'Lee')).toBeUndefined()
    expect(validateField(f('lastName', 'text'), 'x'.repeat(65))).toBe(
      'Your last name can be at most 64 characters',
    )
    expect(validateField(f('firstName', 'text'), 'x'.repeat(64))).toBeUndefined()
  })
  it('zip is exactly 5 digits', () => {
    expect(validateField(f('zipcode', 'zip'), '1234')).toBe('Enter a 5-digit ZIP code')
    expect(validateField(f('zipcode', 'zip'), '123456')).toBe('Enter a 5-digit ZIP code')
    expect(validateField(f('zipcode', 'zip'), '90210')).toBeUndefined()
  })
  it('phone is (###) ###-####', () => {
    expect(validateField(f('phone', 'tel'), '(555) 201-3344')).toBeUndefined()
    expect(validateField(f('phone', 'tel'), '5552013344')).toMatch(/^Enter a 10-digit phone number/)
  })
  it('address is 1 to 128 characters after trimming', () => {
    expect(validateField(f('address', 'text'), '   ')).toBe('Enter your street address')
    expect(validateField(f('address', 'text'), ` ${'a'.repeat(128)} `)).toBeUndefined()
    expect(validateField(f('address', 'text'), 'a'.repeat(129))).toBe(
      'Your address can be at most 128 characters',
    )
  })
  it('email, choices, yes-no and numbers', () => {
    expect(validateField(f('email', 'email'), 'a@b')).toBe('Enter an email address like name@example.com')
    expect(validateField(f('email', 'email'), 'a@b.co')).toBeUndefined()
    expect(validateField(f('haveMedicare', 'yes-no'), undefined)).toBe('Choose Yes or No')
    expect(validateField(f('haveMedicare', 'yes-no'), false)).toBeUndefined()
    const credit = f('creditRating', 'choice', {
      options: [
        { value: 'good', label: 'Good' },
        { value: 'poor', label: 'Poor' },
      ],
    })
    expect(validateField(credit, '')).toBe('Choose one of the options')
    expect(validateField(credit, 'great')).toBe('Choose one of the options')
    expect(validateField(f('vehicleAmount', 'number', { min: 1, max: 4 }), '5')).toBe(
      'Enter a number from 1 to 4',
    )
  })
  it('optional fields accept empty but not wrong values', () => {
    expect(validateField(f('email', 'email', { required: false }), '')).toBeUndefined()
    expect(validateField(f('email', 'email', { required: false }), 'nope')).toBeDefined()
  })
  it('validateStep and emptiedValues', () => {
    const fields = [f('zipcode', 'zip'), f('haveMedicare', 'yes-no')]
    expect(Object.keys(validateStep(fields, { zipcode: '1' }, english.messages))).toEqual([
      'zipcode',
      'haveMedicare',
    ])
    expect(emptiedValues(fields)).toEqual({ zipcode: '', haveMedicare: '' })
  })
})

describe('messages are content in the funnel language (definitions/ui-text)', () => {
  it('Spanish words and numbers filled in', () => {
    expect(validateIn(f('zipcode', 'zip'), '12', spanish.messages)).toBe(
      'Escriba un código postal de 5 dígitos',
    )
    expect(validateIn(f('firstName', 'text'), 'Al', spanish.messages)).toBe(
      'Escriba su nombre (al menos 3 letras)',
    )
    expect(validateIn(f('haveMedicare', 'yes-no'), undefined, spanish.messages)).toBe('Elija Sí o No')
  })
  it('every placeholder of every language is filled by the rules that use it', () => {
    for (const t of [english, spanish]) {
      const m = t.messages
      const all = [
        validateIn(f('firstName', 'text'), 'A', m),
        validateIn(f('lastName', 'text'), 'x'.repeat(65), m),
        validateIn(f('address', 'text'), 'x'.repeat(129), m),
        validateIn(f('zipcode', 'zip'), '1', m),
        validateIn(f('vehicleAmount', 'number', { min: 1, max: 9 }), '10', m),
        validateIn(f('vehicleMake', 'text'), '', m),
      ]
      for (const message of all) expect(message).toMatch(/^[^{}]+$/)
    }
    expect(fillText('{a} and {b}', { a: 1 })).toBe('1 and {b}')
  })
})

describe('maskPhone', () => {
  it('masks as typed', () => {
    expect(['5', '555', '5552', '555201', '5552013', '5552013344'].map(maskPhone)).toEqual([
      '(5',
      '(555',
      '(555) 2',
      '(555) 201',
      '(555) 201-3',
      '(555) 201-3344',
    ])
  })
  it('drops a leading country code and extra digits, keeps the empty value', () => {
    expect(maskPhone('1 555 201 3344')).toBe('(555) 201-3344')
    expect(maskPhone('555201334499')).toBe('(555) 201-3344')
    expect(maskPhone('')).toBe('')
  })
})
