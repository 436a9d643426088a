import { describe, expect, it } from 'vitest'
import { ROUTE_KEY_HASH_PREFIX_LENGTH } from '../constants'
import { routeKey } from './route-key'

describe('routeKey', () => {
  it(`is ${ROUTE_KEY_HASH_PREFIX_LENGTH} hex characters, stable, and differs per route`, () => {
    const a = routeKey('m10', '/quiz/otc/1')
    expect(a).toMatch(new RegExp(`^[0-9a-f]{${ROUTE_KEY_HASH_PREFIX_LENGTH}}$`))
    expect(routeKey('m10', '/quiz/otc/1')).toBe(a)
    expect(routeKey('m10', '/quiz/otc/2')).not.toBe(a)
    expect(routeKey('bh', '/quiz/otc/1')).not.toBe(a)
  })
  it('a route metadata key overrides the path', () => {
    expect(routeKey('m10', '/a', 'same')).toBe(routeKey('m10', '/b', 'same'))
  })
})
