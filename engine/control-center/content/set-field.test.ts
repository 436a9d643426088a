import { describe, expect, it } from 'vitest'
import { setField } from './set-field'

const lineDiff = (a: string, b: string) => {
  const x = a.split('\n')
  const y = b.split('\n')
  return { changed: x.filter((l, i) => l !== y[i]).length, lengths: [x.length, y.length] }
}

const PAGE = `{
  "$schema": "../../schemas/page.schema.json",
  "path": "/grocery",
  "brands": ["m10", "bh"],
  "headline": "Get your grocery allowance",
  "benefits": [
    "One",
    "Two"
  ],
  "cta": { "label": "Call now", "href": "/call" }
}
`

describe('setField', () => {
  it('changes one field as a one-line diff, keeping key order and formatting', () => {
    const out = setField(PAGE, '/headline', 'Could you get $900?')
    expect(JSON.parse(out).headline).toBe('Could you get $900?')
    expect(lineDiff(PAGE, out)).toEqual({ changed: 1, lengths: [12, 12] })
    expect(Object.keys(JSON.parse(out))).toEqual(Object.keys(JSON.parse(PAGE)))
  })

  it('edits nested values, array items and inline objects in place', () => {
    const a = setField(PAGE, '/benefits/1', 'Three')
    expect(lineDiff(PAGE, a).changed).toBe(1)
    expect(JSON.parse(a).benefits).toEqual(['One', 'Three'])
    const b = setField(PAGE, '/cta/label', 'Call us')
    expect(lineDiff(PAGE, b).changed).toBe(1)
    expect(JSON.parse(b).cta).toEqual({ label: 'Call us', href: '/call' })
  })

  it('adds a missing field with the file’s indentation, appends to arrays, removes with undefined', () => {
    const added = setField(PAGE, '/subheadline', 'Fast')
    expect(JSON.parse(added).subheadline).toBe('Fast')
    expect(added).toMatch(/\n {2}"subheadline": "Fast"/)
    const appended = setField(PAGE, '/benefits/-', 'Four')
    expect(JSON.parse(appended).benefits).toEqual(['One', 'Two', 'Four'])
    const removed = setField(PAGE, '/cta', undefined)
    expect(JSON.parse(removed)).not.toHaveProperty('cta')
    expect(JSON.parse(removed).headline).toBe('Get your grocery allowance')
  })

  it('keeps tab indentation and escapes pointer segments', () => {
    const tabbed = '{\n\t"a/b": 1,\n\t"c~d": 2\n}\n'
    const out = setField(setField(tabbed, '/a~1b', 5), '/c~0d', 6)
    expect(JSON.parse(out)).toEqual({ 'a/b': 5, 'c~d': 6 })
    expect(out).toBe('{\n\t"a/b": 5,\n\t"c~d": 6\n}\n')
  })

  it('replaces the whole document at the empty pointer', () => {
    expect(JSON.parse(setField(PAGE, '', { a: 1 }))).toEqual({ a: 1 })
    expect(() => setField(PAGE, '', undefined)).toThrow()
  })
})
