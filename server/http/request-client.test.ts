import { describe, expect, it } from 'vitest'
import { normaliseIp, requestClient } from './request-client'

const trust = (...ips: string[]) => new Set(ips.map(normaliseIp))
const headers =
  (h: Record<string, string>) =>
  (name: string): string | undefined =>
    h[name]

describe('requestClient: one rule for IP, host and protocol', () => {
  it('ignores every X-Forwarded-* header from a peer that is not a trusted proxy', () => {
    const c = requestClient(
      '198.51.100.7',
      headers({
        host: 'm10.example.com',
        'x-forwarded-for': '1.2.3.4',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
      }),
      false,
      trust('10.0.0.5'),
    )
    expect(c).toEqual({
      ip: '198.51.100.7',
      host: 'm10.example.com',
      protocol: 'http',
      viaTrustedProxy: false,
    })
  })

  it('walks forwarded hops from the right while they are trusted; the leftmost is never believed', () => {
    const t = trust('10.0.0.5', '10.0.0.4')
    const h = headers({ 'x-forwarded-for': '9.9.9.9, 73.162.0.1, 10.0.0.4' })
    expect(requestClient('::ffff:10.0.0.5', h, false, t).ip).toBe('73.162.0.1')
    expect(requestClient('10.0.0.9', headers({ 'x-forwarded-for': '73.162.0.1' }), false, t).ip).toBe(
      '10.0.0.9',
    )
  })

  it('takes host and protocol from a trusted proxy', () => {
    const c = requestClient(
      '10.0.0.5',
      headers({ host: 'internal:3000', 'x-forwarded-host': 'M10.Example.com', 'x-forwarded-proto': 'https' }),
      false,
      trust('10.0.0.5'),
    )
    expect(c).toMatchObject({ host: 'm10.example.com', protocol: 'https', viaTrustedProxy: true })
  })

  it('drops a Host that is not a host name (no header text reaches absolute URLs)', () => {
    for (const bad of ['evil.com/x', 'a b', 'evil.com"><script>', 'x@evil.com'])
      expect(requestClient('127.0.0.1', headers({ host: bad }), false, trust()).host).toBe('')
    expect(requestClient('127.0.0.1', headers({ host: '[::1]:3000' }), false, trust()).host).toBe(
      '[::1]:3000',
    )
  })
})
