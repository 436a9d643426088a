import { describe, expect, it } from 'vitest'
import type { Field } from '../../schemas/generated/field'
import { maskPhone } from './phone-mask'
import { emptiedValues, validateField, validateStep } from './validate-field'

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
    expect(Object.keys(validateStep(fields, { zipcode: '1' }))).toEqual(['zipcode', 'haveMedicare'])
    expect(emptiedValues(fields)).toEqual({ zipcode: '', haveMedicare: '' })
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
