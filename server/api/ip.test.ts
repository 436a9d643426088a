import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isPublicIp } from '../geo/is-public-ip'
import { startTestApp } from './phone-test-server'

describe('isPublicIp', () => {
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
