/**
 * The marketplace proxy under load, side by side (loopback only, bounded: 3 s per row):
 * the simulator alone, through the proxy, a slow upstream cut by the timeout, and an open breaker.
 */
import autocannon from 'autocannon'
import { getPhoneBody } from '../../engine/phone/payloads'
import { startTestApp } from '../../server/api/phone-test-server'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../../tests/fixtures/marketplace-simulator/simulator'

const body = JSON.stringify(
  getPhoneBody(
    {
      brandId: 'tqg',
      ip: '',
      geo: {},
      localHour: 10,
      placementId: 'tqg-Zs9Lw4Np1Fb7',
      ruleAfid: '100161',
      userAgent: 'bench',
      url: 'http://tqg.localhost/',
      pageKey: 'home-tqg',
      urlParams: {},
      userId: 'u',
      sessionId: 's',
    },
    { zipcode: '10001' },
  ),
)

async function measure(url: string, connections = 20) {
  const r = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    connections,
    duration: 3,
  })
  return {
    'req/s': Math.round(r.requests.average),
    'p50 ms': r.latency.p50,
    'p99 ms': r.latency.p99,
    non2xx: r.non2xx,
  }
}

/** Each row gets a fresh proxy, so one row's breaker state does not leak into the next. */
async function throughProxy(sim: MarketplaceSimulator, connections = 20, timeoutMs = 2_500) {
  const app = await startTestApp({
    mediaalphaBaseUrl: sim.url,
    mediaalphaTimeoutMs: timeoutMs,
    mediaalphaRateLimitPerMinute: 100_000_000,
  })
  try {
    return await measure(`${app.url}/api/mediaalpha/get-phone`, connections)
  } finally {
    await app.close()
  }
}

export default async function run(): Promise<void> {
  const sim = await startMarketplaceSimulator()
  try {
    const rows: Record<string, unknown> = {}
    rows['simulator alone'] = await measure(`${sim.url}/get-phone`)
    rows['through the proxy'] = await throughProxy(sim)
    sim.setMode({ slowMs: 5_000 })
    // Five timeouts of 500 ms open the breaker; then answers are immediate 503s.
    rows['upstream slow (5 s), timeout 500 ms: then breaker'] = await throughProxy(sim, 5, 500)
    sim.setMode({ slowMs: 0, fail: 500 })
    rows['upstream failing: breaker open'] = await throughProxy(sim)
    console.table(rows)
  } finally {
    await sim.close()
  }
}
