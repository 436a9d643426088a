import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demandCheckBody, getPhoneBody } from '../../engine/phone/payloads'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../../tests/fixtures/marketplace-simulator/simulator'
import { openStore, type Store } from '../store/open-store'
import { startTestApp, testMarketplaceFacts } from './phone-test-server'

const facts = testMarketplaceFacts({
  url: 'http://m10.localhost/quiz/otc/zip',
  pageKey: 'quiz-otc',
  userId: 'user-calls-1',
  sessionId: 'sess-calls-1',
})

describe('the lead record of the phone line', () => {
  let sim: MarketplaceSimulator
  let store: Store
  let app: Awaited<ReturnType<typeof startTestApp>>
  beforeAll(async () => {
    sim = await startMarketplaceSimulator()
    store = await openStore({ databaseUrl: null, dataDir: null })
    app = await startTestApp(
      { mediaalphaBaseUrl: sim.url, mediaalphaApiKey: 'k', mediaalphaRateLimitPerMinute: 1000 },
      store,
    )
  }, 60_000)
  afterAll(async () => {
    await app?.close()
    await store?.close()
    await sim?.close()
  })

  it('keeps each demand check and phone lease with the visitor’s user and session ids and the number leased', async () => {
    const post = async (path: string, body: unknown) => {
      const r = await fetch(`${app.url}/api/mediaalpha/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return (await r.json()) as { value?: string }
    }
    await post('demand-check', demandCheckBody(facts, {}))
    const leased = await post('get-phone', getPhoneBody(facts, { zipcode: '10001' }))
    // Written after the answer, without the answer waiting for it.
    let rows: Record<string, unknown>[] = []
    for (let i = 0; i < 40 && rows.length < 2; i++) {
      rows = (await store.db.query('SELECT * FROM marketplace_calls ORDER BY id')).rows
      if (rows.length < 2) await new Promise((r) => setTimeout(r, 50))
    }
    expect(rows.map((r) => [r.kind, r.user_id, r.session_id, r.ok])).toEqual([
      ['demand-check', 'user-calls-1', 'sess-calls-1', true],
      ['get-phone', 'user-calls-1', 'sess-calls-1', true],
    ])
    expect(rows[1].phone).toBe(leased.value)
    expect(rows[1].page_url).toBe(facts.url)
  })
})
