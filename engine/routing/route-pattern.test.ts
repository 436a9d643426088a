import { describe, expect, it } from 'vitest'
import { buildPath, compareSpecificity, compileRoutePattern, matchRoutePattern } from './route-pattern'

describe('route patterns', () => {
  it('matches static, optional, required and catch-all segments', () => {
    expect(matchRoutePattern(compileRoutePattern('/grocery'), '/grocery')).toEqual({})
    expect(matchRoutePattern(compileRoutePattern('/grocery'), '/grocery/x')).toBeNull()
    const quiz = compileRoutePattern('/quiz/otc/{step?}')
    expect(matchRoutePattern(quiz, '/quiz/otc')).toEqual({})
    expect(matchRoutePattern(quiz, '/quiz/otc/zip')).toEqual({ step: 'zip' })
    expect(matchRoutePattern(quiz, '/quiz/otc/zip/more')).toBeNull()
    const token = compileRoutePattern('/ac-v1/{token}/{step?}')
    expect(matchRoutePattern(token, '/ac-v1/abc')).toEqual({ token: 'abc' })
    expect(matchRoutePattern(token, '/ac-v1/abc/zip')).toEqual({ token: 'abc', step: 'zip' })
    const rest = compileRoutePattern('/reviews/{slug...}')
    expect(matchRoutePattern(rest, '/reviews')).toBeNull()
    expect(matchRoutePattern(rest, '/reviews/2024/best-plans')).toEqual({ slug: '2024/best-plans' })
    expect(matchRoutePattern(compileRoutePattern('/'), '/')).toEqual({})
  })

  it('orders static before parameters before catch-alls', () => {
    const list = ['/reviews/{slug...}', '/reviews/aetna', '/reviews/{x}']
      .map(compileRoutePattern)
      .sort(compareSpecificity)
    expect(list.map((p) => p.source)).toEqual(['/reviews/aetna', '/reviews/{x}', '/reviews/{slug...}'])
  })

  it('gives the same shape to patterns that match the same paths', () => {
    expect(compileRoutePattern('/a/{x}').shape).toBe(compileRoutePattern('/a/{y}').shape)
    expect(compileRoutePattern('/a/{x?}').shape).not.toBe(compileRoutePattern('/a/{x}').shape)
  })

  it.each([
    ['grocery', 'must start with /'],
    ['/a//b', 'empty segment'],
    ['/a/{x...}/b', 'must be the last segment'],
    ['/a/{x?}/b', 'must be the last segment'],
    ['/a/{x}/{x}', 'repeats parameter'],
    ['/a/{bad-name}', 'not a valid parameter'],
    ['/Upper', 'lower-case'],
  ])('refuses %s', (source, message) => {
    expect(() => compileRoutePattern(source)).toThrow(message)
  })

  it('builds paths back from parameters', () => {
    expect(buildPath(compileRoutePattern('/quiz/otc/{step?}'), {})).toBe('/quiz/otc')
    expect(buildPath(compileRoutePattern('/quiz/otc/{step?}'), { step: 'zip' })).toBe('/quiz/otc/zip')
    expect(buildPath(compileRoutePattern('/x/{token}/{step?}'), { token: 't 1', step: 'a' })).toBe(
      '/x/t%201/a',
    )
  })
})
