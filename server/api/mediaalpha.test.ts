import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { demandCheckBody, getPhoneBody } from '../../engine/phone/payloads'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../../tests/fixtures/marketplace-simulator/simulator'
import { startTestApp, testMarketplaceFacts } from './phone-test-server'

const facts = testMarketplaceFacts()
const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/mediaalpha/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

let sim: MarketplaceSimulator
beforeAll(async () => {
  sim = await startMarketplaceSimulator()
})
afterAll(() => sim.close())
afterEach(() => sim.reset())

describe('marketplace proxy', () => {
  it('without configuration answers a clear 503', async () => {
    const app = await startTestApp({ mediaalphaBaseUrl: null })
    try {
      const res = await post(app.url, 'get-phone', getPhoneBody(facts, {}))
      expect(res.status).toBe(503)
      expect((await res.json()).error).toMatch(/MEDIAALPHA_BASE_URL is unset/)
    } finally {
      await app.close()
    }
  })

  describe('configured', () => {
    let app: Awaited<ReturnType<typeof startTestApp>>
    beforeAll(async () => {
      app = await startTestApp({
        mediaalphaBaseUrl: sim.url,
        mediaalphaApiKey: 'test-key',
        mediaalphaTimeoutMs: 300,
        mediaalphaRateLimitPerMinute: 1000,
      })
    })
    afterAll(() => app.close())

    it('forwards get-phone with credentials and the client IP it sees, answers value and expirationDate', async () => {
      const res = await post(app.url, 'get-phone', getPhoneBody(facts, { zipcode: '10001' }))
      expect(res.status).toBe(200)
      const answer = await res.json()
      expect(answer.value).toMatch(/^1800555\d{4}$/)
      expect(Date.parse(answer.expirationDate)).toBeGreaterThan(Date.now())
      expect(sim.requests).toHaveLength(1)
      const got = sim.requests[0]
      expect(got.path).toBe('/get-phone')
      expect(got.headers.authorization).toBe('Bearer test-key')
      expect(got.body).toEqual({ ...getPhoneBody(facts, { zipcode: '10001' }), ip: '127.0.0.1' })
    })

    it('forwards demand-check and answers parsed and raw', async () => {
      sim.setMode({ bid: 4.5 })
      const res = await post(app.url, 'demand-check', demandCheckBody(facts, {}))
      const answer = await res.json()
      expect(answer.parsed.ctc.ev).toBe(4.5)
      expect(JSON.parse(answer.raw)).toEqual(answer.parsed)
      expect(sim.requests[0].body).toMatchObject({ max: 1, call_type: 'Inbound', transfer_type: 'cold' })
    })

    // The browser's request (docs/decisions/0523): the server builds the body with the same builders.
    const { ip: _ip, userAgent: _ua, ...known } = facts
    const fromBrowser = (values: Record<string, string | boolean>) => ({ ...known, values })

    it('builds the bodies of a browser request itself, with the IP and user agent it sees', async () => {
      const values = { zipcode: '10001', haveMedicare: true, haveMedicaid: false }
      const seen = { ip: '127.0.0.1', userAgent: 'a phone browser' }
      const res = await post(app.url, 'get-phone', fromBrowser(values), { 'user-agent': seen.userAgent })
      expect(res.status).toBe(200)
      expect(sim.requests[0]!.body).toEqual(getPhoneBody({ ...facts, ...seen }, values))
      expect(sim.requests[0]!.body).toMatchObject({
        data: { zip: '10001', currently_insured: 1, dsnp: 0 },
        ua: seen.userAgent,
      })
      sim.setMode({ bid: 4.5 })
      const check = await post(app.url, 'demand-check', fromBrowser(values), { 'user-agent': seen.userAgent })
      expect((await check.json()).parsed.ctc.ev).toBe(4.5)
      expect(sim.requests[1]!.body).toEqual(demandCheckBody({ ...facts, ...seen }, values))
    })

    it('keeps only the valid answers of a browser request (spec point 5) and refuses a bad one with a 400', async () => {
      const res = await post(app.url, 'get-phone', fromBrowser({ zipcode: '1000', email: 'not an address' }))
      expect(res.status).toBe(200)
      // The invalid ZIP gives way to the IP lookup's (facts.geo); the invalid e-mail is left out.
      expect((sim.requests[0]!.body as { data: unknown }).data).toEqual({ zip: facts.geo.postalCode })
      // What the builders cut (a long page URL, an overlong answer) is cut or left out, not refused.
      const longUrl = `http://m10.localhost/?gclid=${'g'.repeat(3_000)}`
      const long = await post(app.url, 'get-phone', {
        ...fromBrowser({ address: 'a'.repeat(2_000) }),
        url: longUrl,
      })
      expect(long.status).toBe(200)
      const sent = sim.requests[1]!.body as { url: string; data: { address?: string } }
      expect(sent.url).toBe(longUrl.slice(0, 2048))
      expect(sent.data.address).toBeUndefined()
      const unknownField = await post(app.url, 'get-phone', fromBrowser({ favouriteColour: 'red' }))
      expect(unknownField.status).toBe(400)
      expect((await unknownField.json()).error).toMatch(/\/values/)
      const badHour = await post(app.url, 'demand-check', { ...fromBrowser({}), localHour: 24 })
      expect(badHour.status).toBe(400)
      expect((await badHour.json()).error).toMatch(/\/localHour/)
      expect(sim.requests).toHaveLength(2)
    })

    it('refuses an invalid body with a 400 naming the field, and never calls upstream', async () => {
      const res = await post(app.url, 'get-phone', { ...getPhoneBody(facts, {}), version: 16 })
      expect(res.status).toBe(400)
      expect((await res.json()).error).toMatch(/\/version: must be 17/)
      const bad = await post(app.url, 'demand-check', '{not json')
      expect(bad.status).toBe(400)
      expect((await bad.json()).error).toMatch(/not valid JSON/)
      const notJson = await fetch(`${app.url}/api/mediaalpha/get-phone`, { method: 'POST', body: 'x' })
      expect(notJson.status).toBe(415)
      expect(sim.requests).toHaveLength(0)
    })

    it('a slow upstream answers 504 within the timeout instead of waiting', async () => {
      sim.setMode({ slowMs: 5_000 })
      const started = Date.now()
      const res = await post(app.url, 'get-phone', getPhoneBody(facts, {}))
      expect(res.status).toBe(504)
      expect((await res.json()).error).toMatch(/did not answer within 300 ms/)
      // Coarse bound only: far below the simulator's 5 s delay.
      expect(Date.now() - started).toBeLessThan(4_000)
    })
  })

  it('an upstream that is down opens the breaker: calls stop reaching it', async () => {
    const app = await startTestApp({ mediaalphaBaseUrl: sim.url, mediaalphaRateLimitPerMinute: 1000 })
    try {
      sim.setMode({ fail: 500 })
      const statuses: number[] = []
      for (let i = 0; i < 8; i++)
        statuses.push((await post(app.url, 'get-phone', getPhoneBody(facts, {}))).status)
      expect(statuses).toEqual([502, 502, 502, 502, 502, 503, 503, 503])
      expect(sim.requests).toHaveLength(5)
      const open = await (await post(app.url, 'demand-check', demandCheckBody(facts, {}))).json()
      expect(open.error).toMatch(/circuit open/)
      // Pages rendering with the default number while it is down: tests/e2e/phone.e2e.ts.
    } finally {
      await app.close()
    }
  })

  it('a 200 that is not JSON is a failure: 502 for both endpoints, and it opens the breaker', async () => {
    const app = await startTestApp({ mediaalphaBaseUrl: sim.url, mediaalphaRateLimitPerMinute: 1000 })
    try {
      sim.setMode({ fail: 'garbage' })
      const check = await post(app.url, 'demand-check', demandCheckBody(facts, {}))
      expect(check.status).toBe(502)
      expect((await check.json()).error).toMatch(/not JSON/)
      const statuses: number[] = []
      for (let i = 0; i < 6; i++)
        statuses.push((await post(app.url, 'get-phone', getPhoneBody(facts, {}))).status)
      expect(statuses).toEqual([502, 502, 502, 502, 503, 503])
      expect(sim.requests).toHaveLength(5)
    } finally {
      await app.close()
    }
  })

  it('rate limit per visitor answers 429 with Retry-After', async () => {
    const app = await startTestApp({ mediaalphaBaseUrl: sim.url, mediaalphaRateLimitPerMinute: 3 })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 5; i++)
        statuses.push((await post(app.url, 'get-phone', getPhoneBody(facts, {}))).status)
      expect(statuses).toEqual([200, 200, 200, 429, 429])
      const res = await post(app.url, 'get-phone', getPhoneBody(facts, {}))
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
      expect((await res.json()).error).toMatch(/Too many phone requests/)
      // The other endpoint has its own allowance.
      expect((await post(app.url, 'demand-check', demandCheckBody(facts, {}))).status).toBe(200)
      expect(sim.requests).toHaveLength(4)
    } finally {
      await app.close()
    }
  })

  it('behind a trusted proxy the forwarded client IP is used, and limits apply per visitor', async () => {
    const app = await startTestApp({
      mediaalphaBaseUrl: sim.url,
      mediaalphaRateLimitPerMinute: 1,
      trustedProxies: ['127.0.0.1'],
    })
    try {
      const a = await post(app.url, 'get-phone', getPhoneBody(facts, {}), { 'x-forwarded-for': '73.162.0.1' })
      const b = await post(app.url, 'get-phone', getPhoneBody(facts, {}), { 'x-forwarded-for': '98.207.0.1' })
      const a2 = await post(app.url, 'get-phone', getPhoneBody(facts, {}), {
        'x-forwarded-for': '73.162.0.1',
      })
      expect([a.status, b.status, a2.status]).toEqual([200, 200, 429])
      expect(sim.requests.map((r) => (r.body as { ip: string }).ip)).toEqual(['73.162.0.1', '98.207.0.1'])
    } finally {
      await app.close()
    }
  })
})
