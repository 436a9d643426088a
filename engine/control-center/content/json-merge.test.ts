import { describe, expect, it } from 'vitest'
import { ABSENT, jsonEqual, mergeJson } from './json-merge'
import { mergeJsonText } from './merge-json-text'

const base = {
  headline: 'Old',
  subheadline: 'Sub',
  brands: ['m10', 'bh'],
  cta: { label: 'Call', href: '/call' },
  faq: [
    { id: 'q1', q: 'Who?', a: 'You' },
    { id: 'q2', q: 'What?', a: 'This' },
  ],
}
const clone = <T>(x: T): T => structuredClone(x)

describe('mergeJson (three-way, by pointer)', () => {
  it('takes either side when only one changed', () => {
    const mine = { ...clone(base), headline: 'Mine' }
    expect(mergeJson(base, base, mine)).toEqual({
      ok: true,
      value: mine,
      edits: [{ pointer: '/headline', value: 'Mine' }],
    })
    expect(mergeJson(base, mine, base)).toEqual({ ok: true, value: mine, edits: [] })
    expect(mergeJson(base, mine, mine)).toMatchObject({ ok: true, value: mine, edits: [] })
  })

  it('merges edits of different fields silently', () => {
    const theirs = { ...clone(base), subheadline: 'Theirs sub' }
    const mine = { ...clone(base), headline: 'Mine', cta: { label: 'Call us', href: '/call' } }
    const r = mergeJson(base, theirs, mine)
    expect(r).toEqual({
      ok: true,
      value: {
        ...base,
        subheadline: 'Theirs sub',
        headline: 'Mine',
        cta: { label: 'Call us', href: '/call' },
      },
      edits: [
        { pointer: '/headline', value: 'Mine' },
        { pointer: '/cta/label', value: 'Call us' },
      ],
    })
  })

  it('reports the same field changed on both sides with base, theirs and mine', () => {
    const r = mergeJson(
      base,
      { ...base, headline: 'Theirs' },
      { ...base, headline: 'Mine', subheadline: 'x' },
    )
    expect(r).toEqual({
      ok: false,
      conflicts: [{ pointer: '/headline', base: 'Old', theirs: 'Theirs', mine: 'Mine' }],
    })
  })

  it('handles added and removed fields, and add/delete conflicts', () => {
    const { subheadline: _s, ...noSub } = clone(base)
    const r = mergeJson(base, { ...base, extra: 1 }, noSub)
    expect(r).toMatchObject({
      ok: true,
      value: { ...noSub, extra: 1 },
      edits: [{ pointer: '/subheadline', value: ABSENT }],
    })
    const both = mergeJson(base, { ...noSub }, { ...base, subheadline: 'changed' })
    expect(both).toEqual({
      ok: false,
      conflicts: [{ pointer: '/subheadline', base: 'Sub', theirs: ABSENT, mine: 'changed' }],
    })
    const added = mergeJson(base, { ...base, n: 1 }, { ...base, n: 2 })
    expect(added).toMatchObject({
      ok: false,
      conflicts: [{ pointer: '/n', base: ABSENT, theirs: 1, mine: 2 }],
    })
  })

  it('merges items of arrays with an identity by id, not by position', () => {
    const theirs = clone(base)
    theirs.faq.unshift({ id: 'q0', q: 'New?', a: 'Yes' })
    const mine = clone(base)
    mine.faq[1].a = 'That'
    const r = mergeJson(base, theirs, mine)
    expect(r.ok && r.value).toEqual({
      ...base,
      faq: [theirs.faq[0], base.faq[0], { ...base.faq[1], a: 'That' }],
    })
    expect(r.ok && r.edits).toEqual([{ pointer: '/faq/2/a', value: 'That' }])
    // Same item, same field: a conflict at the item's position in the result.
    const theirs2 = clone(base)
    theirs2.faq[1].a = 'Other'
    expect(mergeJson(base, theirs2, mine)).toMatchObject({
      ok: false,
      conflicts: [{ pointer: '/faq/1/a', theirs: 'Other', mine: 'That' }],
    })
    // Mine adds an item while theirs edits another: both kept; the array is rewritten as one edit.
    const mine3 = clone(base)
    mine3.faq.push({ id: 'q3', q: 'When?', a: 'Now' })
    const r3 = mergeJson(base, theirs2, mine3)
    expect(r3.ok && (r3.value as typeof base).faq.map((f) => `${f.id}:${f.a}`)).toEqual([
      'q1:You',
      'q2:Other',
      'q3:Now',
    ])
    expect(r3.ok && r3.edits).toEqual([{ pointer: '/faq', value: (r3 as { value: typeof base }).value.faq }])
  })

  it('treats arrays without identities as values (both changed → conflict)', () => {
    const r = mergeJson(base, { ...base, brands: ['m10'] }, { ...base, brands: ['m10', 'bh', 'ac'] })
    expect(r).toMatchObject({ ok: false, conflicts: [{ pointer: '/brands' }] })
  })

  it('jsonEqual compares deeply and ignores key order', () => {
    expect(jsonEqual({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] })).toBe(true)
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false)
    expect(jsonEqual([1], { 0: 1 })).toBe(false)
  })
})

describe('mergeJsonText', () => {
  const text = (o: unknown) => `${JSON.stringify(o, null, 2)}\n`
  it('writes the merge as small edits of theirs’ text', () => {
    const theirs = text({ ...base, subheadline: 'Theirs sub' })
    const r = mergeJsonText(text(base), theirs, text({ ...base, headline: 'Mine' }))
    expect(r.ok).toBe(true)
    const out = (r as { text: string }).text
    expect(JSON.parse(out)).toEqual({ ...base, subheadline: 'Theirs sub', headline: 'Mine' })
    expect(out.split('\n').filter((l, i) => l !== theirs.split('\n')[i])).toEqual(['  "headline": "Mine",'])
  })

  it('short-cuts when a side is unchanged, and conflicts on unparsable or deleted files', () => {
    expect(mergeJsonText('a', 'a', 'b')).toEqual({ ok: true, text: 'b' })
    expect(mergeJsonText('a', 'c', 'a')).toEqual({ ok: true, text: 'c' })
    expect(mergeJsonText('{}', '{"a":1}', '{')).toMatchObject({ ok: false, conflicts: [{ pointer: '' }] })
    expect(mergeJsonText('{}', null, '{"a":1}')).toMatchObject({
      ok: false,
      conflicts: [{ pointer: '', theirs: ABSENT }],
    })
    // Both created the same file: an honest conflict, not a guess.
    expect(mergeJsonText(null, '{"a":1}', '{"b":1}')).toMatchObject({
      ok: false,
      conflicts: [{ pointer: '', base: ABSENT }],
    })
  })
})

describe('settling conflicts with the merge dialog (resolve)', () => {
  const theirs = { ...clone(base), headline: 'Theirs', subheadline: 'Theirs sub' }
  const mine = { ...clone(base), headline: 'Mine', cta: { label: 'Call us', href: '/call' } }

  it('takes the chosen value and keeps every silent change of both sides', () => {
    const r = mergeJson(base, theirs, mine, (c) => (c.pointer === '/headline' ? c.mine : undefined))
    expect(r).toMatchObject({
      ok: true,
      value: {
        ...base,
        headline: 'Mine',
        subheadline: 'Theirs sub',
        cta: { label: 'Call us', href: '/call' },
      },
    })
    const t = mergeJsonText(
      `${JSON.stringify(base, null, 2)}\n`,
      `${JSON.stringify(theirs, null, 2)}\n`,
      `${JSON.stringify(mine, null, 2)}\n`,
      (c) => (c.pointer === '/headline' ? 'Edited' : undefined),
    )
    expect(t.ok && JSON.parse(t.text)).toEqual({
      ...base,
      headline: 'Edited',
      subheadline: 'Theirs sub',
      cta: { label: 'Call us', href: '/call' },
    })
  })

  it('choosing theirs or removing the field; an unanswered conflict stays a conflict', () => {
    expect(mergeJson(base, theirs, mine, (c) => c.theirs)).toMatchObject({
      ok: true,
      value: { headline: 'Theirs' },
    })
    const removed = mergeJson(base, theirs, mine, () => ABSENT)
    expect(removed.ok && Object.hasOwn(removed.value as object, 'headline')).toBe(false)
    expect(mergeJson(base, theirs, mine, () => undefined)).toMatchObject({
      ok: false,
      conflicts: [{ pointer: '/headline' }],
    })
  })
})
