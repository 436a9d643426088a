import { describe, expect, it } from 'vitest'
import { ccPath, matchControlCenterRoute } from './control-center-routes'

describe('control-center routes (spec point 2)', () => {
  it('matches exactly the spec paths, with their parameters', () => {
    expect(matchControlCenterRoute('/branches')).toEqual({
      screen: 'branches',
      params: {},
      underBranch: false,
    })
    expect(matchControlCenterRoute('/branches/spring-promo')).toEqual({
      screen: 'branch',
      params: { branch: 'spring-promo' },
      underBranch: false,
    })
    expect(matchControlCenterRoute('/pages/grocery')?.screen).toBe('page')
    expect(matchControlCenterRoute('/content-factory/runs/42')).toEqual({
      screen: 'content-factory-run',
      params: { run: '42' },
      underBranch: true,
    })
    expect(matchControlCenterRoute('/content-factory/authors')?.screen).toBe('content-factory-authors')
    for (const other of ['/', '/branch', '/pages/a/b', '/branches/', '/pages/', '/settings', '/_primitives'])
      expect(matchControlCenterRoute(other), other).toBeNull()
  })

  it('builds screen URLs with the branch only where the screen is under one', () => {
    expect(ccPath('page', { page: 'grocery' }, 'spring-promo', { tab: 'source' })).toBe(
      '/pages/grocery?branch=spring-promo&tab=source',
    )
    expect(ccPath('branches', {}, 'spring-promo')).toBe('/branches')
    expect(ccPath('branch', { branch: 'a b' })).toBe('/branches/a%20b')
  })
})
