import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientIp, isPublicIp } from '../geo/client-ip'
import { startTestApp } from './phone-test-server'

describe('client IP', () => {
  it('ignores X-Forwarded-For without trusted proxies', () => {
    expect(clientIp('10.0.0.5', '1.2.3.4', [])).toBe('10.0.0.5')
  })
  it('walks forwarded hops from the right while they are trusted', () => {
    expect(clientIp('::ffff:10.0.0.5', '9.9.9.9, 73.162.0.1, 10.0.0.4', ['10.0.0.5', '10.0.0.4'])).toBe(
      '73.162.0.1',
    )
    expect(clientIp('10.0.0.9', '73.162.0.1', ['10.0.0.5'])).toBe('10.0.0.9')
  })
  it('knows private and loopback addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '192.168.1.1', '172.20.0.1', '::1', 'fd00::1', '100.64.0.1'])
      expect(isPublicIp(ip)).toBe(false)
    expect(isPublicIp('73.162.0.1')).toBe(true)
  })
})

describe('GET /api/ip', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>
  beforeAll(async () => {
    app = await startTestApp({ trustedProxies: ['127.0.0.1'] })
  })
  afterAll(() => app.close())
  const get = (headers: Record<string, string> = {}) =>
    fetch(`${app.url}/api/ip`, { headers }).then((r) => r.json())

  it('loopback visitor: the IP and an empty geo', async () => {
    expect(await get()).toEqual({ value: '127.0.0.1', geo: {} })
    expect(await get({ 'x-forwarded-for': '192.168.0.7' })).toEqual({ value: '192.168.0.7', geo: {} })
  })
  it('a public IP is looked up in the bundled IP database', async () => {
    const r = await get({ 'x-forwarded-for': '73.162.0.1' })
    expect(r.value).toBe('73.162.0.1')
    expect(r.geo.postalCode).toMatch(/^\d{5}$/)
    expect(r.geo.stateCode).toMatch(/^[A-Z]{2}$/)
    expect(typeof r.geo.cityName).toBe('string')
  })
  it('geo headers of a trusted proxy win over the database', async () => {
    const r = await get({
      'x-forwarded-for': '73.162.0.1',
      'cf-postal-code': '10001',
      'cf-region-code': 'NY',
      'x-geo-isp': 'Example Cable',
    })
    expect(r.geo).toMatchObject({ postalCode: '10001', stateCode: 'NY', isp: 'Example Cable' })
  })
})
