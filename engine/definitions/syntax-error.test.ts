import { describe, expect, it } from 'vitest'
import { offsetToPosition } from './locate'
import { firstSyntaxError } from './syntax-error'

const at = (text: string) => {
  const e = firstSyntaxError(text)
  return e && { ...offsetToPosition(text, e.offset), message: e.message }
}

describe('JSON syntax errors in words', () => {
  it('names the property a missing comma follows, at the next property', () => {
    expect(at('{\n  "id": "zip",\n  "title": "x"\n  "subtitle": "y"\n}')).toEqual({
      line: 4,
      column: 3,
      message: 'expected a comma or `}` after the value of "title", found "subtitle"',
    })
  })
  it('counts list items for a missing comma in a list', () => {
    expect(at('{"a": [1, 2 3]}')?.message).toBe('expected a comma or `]` after item 2 of the list, found `3`')
  })
  it('points at a trailing comma itself', () => {
    expect(at('{\n  "a": 1,\n}')).toEqual({
      line: 2,
      column: 9,
      message: 'a comma after the last property ("a") is not allowed in JSON: remove it',
    })
    expect(at('[1,\n]')?.message).toBe(
      'a comma after the last item of a list is not allowed in JSON: remove it',
    )
  })
  it('explains single quotes, a missing colon, an open string, comments and a missing brace', () => {
    expect(at("{'a': 1}")?.message).toMatch(/not valid JSON here \(strings need double quotes\)/)
    expect(at('{"a" 1}')?.message).toBe('expected a colon after the property name "a", found `1`')
    expect(at('{"a": "b}')?.message).toMatch(/^a string is not closed/)
    expect(at('{"a": 1 // note\n}')?.message).toBe('comments are not allowed in JSON definition files')
    expect(at('{"a": {"b": 1}')?.message).toMatch(
      /^expected `}` to close the object.*, found the end of the file$/,
    )
  })
  it('is silent on valid JSON', () => {
    expect(firstSyntaxError('{"a": [1, {"b": null}]}')).toBeNull()
  })
})
