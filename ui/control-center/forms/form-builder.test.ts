import { describe, expect, it } from 'vitest'
import pageSchema from '../../../schemas/page.schema.json'
import { PAGE_UI } from './kinds/page-ui'
import { domId, errorsAt, getAt, setAt, words } from './pointer'
import { formFields } from './SchemaForm'
import { defaultWidget, propertyAt } from './schema'
import type { JsonSchema } from './types'

const schema = pageSchema as JsonSchema
const err = (pointer: string) => ({
  file: 'definitions/pages/x.json',
  line: 1,
  column: 1,
  pointer,
  message: 'm',
})

describe('the form builder', () => {
  it('follows $refs into the shared schemas and knows what is required', () => {
    expect(propertyAt(schema, '/image/alt').schema.type).toBe('string')
    expect(propertyAt(schema, '/image/alt').required).toBe(true)
    expect(propertyAt(schema, '/brands').required).toBe(true)
    expect(propertyAt(schema, '/destination').required).toBe(false)
    expect(propertyAt(schema, '/faq/0/answer').schema.minLength).toBe(1)
  })

  it('picks a widget from the type, and none for objects', () => {
    expect(defaultWidget({ type: 'string' })).toBe('text')
    expect(defaultWidget({ type: 'string', format: 'date' })).toBe('date')
    expect(defaultWidget({ enum: ['a'] })).toBe('enum')
    expect(defaultWidget({ type: 'boolean' })).toBe('boolean')
    expect(defaultWidget({ type: 'integer' })).toBe('number')
    expect(defaultWidget({ type: 'array', items: { type: 'string' } })).toBe('lines')
    expect(defaultWidget({ type: 'object' })).toBeNull()
  })

  it('shows a property the UI description does not name in the default tab; an object goes to the Source tab', () => {
    const copy = structuredClone(schema) as JsonSchema & { properties: Record<string, JsonSchema> }
    copy.properties.promoCode = { type: 'string', description: 'A code.' }
    copy.properties.extra = { type: 'object' }
    const content = formFields(copy, PAGE_UI, 'content')
    expect(content.fields.map((f) => f.pointer)).toContain('/promoCode')
    expect(content.sourceOnly).toContain('extra')
    expect(formFields(copy, PAGE_UI, 'seo').fields.map((f) => f.pointer)).not.toContain('/promoCode')
    // Errors belong to the tab of their top-level property; unknown ones to the default tab.
    expect(content.ownsError(err('/destination'))).toBe(true)
    expect(content.ownsError(err('/path'))).toBe(false)
    expect(formFields(copy, PAGE_UI, 'route').ownsError(err('/smid/m10'))).toBe(true)
  })

  it('writes by pointer without touching the original, and drops an emptied object', () => {
    const doc = { a: 1, match: { pages: ['x'] }, list: ['p', 'q'] }
    expect(setAt(doc, '/match/pages', undefined)).toEqual({ a: 1, list: ['p', 'q'] })
    expect(setAt(doc, '/list/1', 'r')).toEqual({ a: 1, match: { pages: ['x'] }, list: ['p', 'r'] })
    expect(setAt(doc, '/b/c', 2)).toEqual({ ...doc, b: { c: 2 } })
    expect(doc).toEqual({ a: 1, match: { pages: ['x'] }, list: ['p', 'q'] })
    expect(getAt(doc, '/match/pages/0')).toBe('x')
  })

  it('finds the errors at a field or inside it, and names inputs by pointer', () => {
    const errors = [err('/image'), err('/image/alt'), err('/imageX'), err('/cta/label')]
    expect(errorsAt(errors, '/image').map((e) => e.pointer)).toEqual(['/image', '/image/alt'])
    expect(domId('pf', '/image/alt')).toBe('pf-image-alt')
    expect(words('allowExternalDestination')).toBe('Allow external destination')
  })
})
