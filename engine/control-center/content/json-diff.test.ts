import { describe, expect, it } from 'vitest'
import { jsonDiff, parseForDiff } from './json-diff'
import { ABSENT } from './json-merge'

describe('jsonDiff', () => {
  it('names each changed field by pointer with its old and new value', () => {
    const before = { headline: 'Get yours', brands: ['m10', 'bh'], seo: { title: 'A' } }
    const after = { headline: 'Could you get', brands: ['m10', 'ac'], seo: {}, cta: 'Go' }
    expect(jsonDiff(before, after)).toEqual([
      { pointer: '/headline', op: 'replace', before: 'Get yours', after: 'Could you get' },
      { pointer: '/brands/1', op: 'replace', before: 'bh', after: 'ac' },
      { pointer: '/seo/title', op: 'remove', before: 'A' },
      { pointer: '/cta', op: 'add', after: 'Go' },
    ])
  })

  it('reports a new or deleted file as one change of the whole document', () => {
    expect(jsonDiff(ABSENT, { a: 1 })).toEqual([{ pointer: '', op: 'add', after: { a: 1 } }])
    expect(jsonDiff({ a: 1 }, ABSENT)).toEqual([{ pointer: '', op: 'remove', before: { a: 1 } }])
  })

  it('is empty for equal documents and keeps a broken text as a string', () => {
    expect(jsonDiff({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([])
    expect(parseForDiff('{ broken')).toBe('{ broken')
    expect(parseForDiff(null)).toBe(ABSENT)
  })
})
