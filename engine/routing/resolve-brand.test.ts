import { describe, expect, it } from 'vitest'
import { buildHostIndex, isBareLocalHost, normalizeHost, resolveBrandId } from './resolve-brand'

const index = buildHostIndex([
  { id: 'm10', domains: ['medicare10.com', 'www.medicare10.com', '*.medicare10.com', 'm10.localhost'] },
  { id: 'bh', domains: ['benefithelpline.com', '*.benefithelpline.com'] },
  { id: 'special', domains: ['*.deep.medicare10.com'] },
])

describe('host → brand', () => {
  it.each([
    ['exact domain', 'medicare10.com', 'm10'],
    ['exact www', 'www.medicare10.com', 'm10'],
    ['wildcard subdomain', 'offers.medicare10.com', 'm10'],
    ['most specific wildcard wins', 'a.deep.medicare10.com', 'special'],
    ['listed localhost', 'm10.localhost', 'm10'],
    ['<id>.localhost not listed', 'bh.localhost', 'bh'],
    ['port ignored', 'medicare10.com:8080', 'm10'],
    ['upper case', 'WWW.MEDICARE10.COM', 'm10'],
    ['trailing dot', 'medicare10.com.', 'm10'],
    ['port and trailing dot on localhost', 'BH.localhost.:3000', 'bh'],
  ])('%s: %s → %s', (_, host, brand) => {
    expect(resolveBrandId(index, host)).toBe(brand)
  })

  it.each([
    ['unknown domain', 'example.com'],
    ['wildcard does not match the bare suffix lookalike', 'evilmedicare10.com'],
    ['unknown localhost id', 'nope.localhost'],
    ['empty', ''],
    ['bare localhost', 'localhost:3000'],
  ])('%s (%s) → null', (_, host) => {
    expect(resolveBrandId(index, host)).toBeNull()
  })

  it('normalises hosts', () => {
    expect(normalizeHost('Example.COM.:443')).toBe('example.com')
    expect(normalizeHost('[::1]:3000')).toBe('::1')
  })

  it('recognises bare local hosts only', () => {
    expect(isBareLocalHost('localhost:3000')).toBe(true)
    expect(isBareLocalHost('127.0.0.1')).toBe(true)
    expect(isBareLocalHost('[::1]:3000')).toBe(true)
    expect(isBareLocalHost('m10.localhost')).toBe(false)
    expect(isBareLocalHost('medicare10.com')).toBe(false)
  })
})
