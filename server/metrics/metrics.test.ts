/**
 * /metrics on its own port (issue 30, docs/decisions/0710): the real app and store in process, a few
 * requests, then a scrape. Pages served from the HTML cache need the production build: the e2e file
 * tests/e2e/metrics.e2e.ts counts a miss and a hit.
 */
import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getPhoneBody } from '../../engine/phone/payloads'
import {
  type MarketplaceSimulator,
  startMarketplaceSimulator,
} from '../../tests/fixtures/marketplace-simulator/simulator'
import { testMarketplaceFacts } from '../api/phone-test-server'
import { createRequestListener } from '../app'
import { loadConfig } from '../config'
import { SnapshotStore } from '../content/snapshot-store'
import { openStore, type Store } from '../store/open-store'
import { sampleEvent } from '../store/sample-event'
import { dropPostgresSchema, uniquePostgresUrl } from '../store/test-databases'
import { Metrics } from './metrics'
import { type MetricsServer, startMetricsServer } from './metrics-server'
import { RequestMetrics } from './request-metrics'

/** A request with a Host header (fetch drops a custom Host: STACK pitfall 5). */
function send(port: number, path: string, opts: { method?: string; host?: string; body?: unknown } = {}) {
  return new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body)
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        headers: {
          host: opts.host ?? `127.0.0.1:${port}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = ''
        res.on('data', (c) => {
          text += c
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text, type: String(res.headers['content-type']) }),
        )
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('GET /metrics on METRICS_PORT', () => {
  let store: Store
  let sim: MarketplaceSimulator
  let metrics: Metrics
  let site: ReturnType<typeof createServer>
  let sitePort: number
  let scraper: MetricsServer
  let schema: string | undefined

  beforeAll(async () => {
    // PostgreSQL (the test run's server): a schema is made in well under a second, a new PGlite in several.
    const pg = uniquePostgresUrl('fw_metrics')
    schema = pg.schema
    store = await openStore({ databaseUrl: pg.url, dataDir: null })
    sim = await startMarketplaceSimulator()
    const config = loadConfig(
      { NODE_ENV: 'production', LOG_LEVEL: 'error', METRICS_PORT: '0' },
      { mediaalphaBaseUrl: sim.url },
    )
    const snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
    metrics = new Metrics()
    metrics.watch({ eventQueue: store.events })
    const { listener } = createRequestListener({ config, snapshots, store, metrics })
    site = createServer(listener)
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()))
    sitePort = (site.address() as AddressInfo).port
    scraper = await startMetricsServer({ metrics, snapshots, host: '127.0.0.1', port: 0 })
  }, 60_000)

  afterAll(async () => {
    site?.closeAllConnections()
    await new Promise((r) => (site ? site.close(r) : r(null)))
    await scraper?.close()
    await sim?.close()
    await store?.close()
    if (schema) await dropPostgresSchema(schema)
  })

  it('counts requests, events, phone leases and sign-in failures, every metric with its help text', async () => {
    expect((await send(sitePort, '/api/event/create', { method: 'POST', body: sampleEvent() })).status).toBe(
      200,
    )
    expect((await send(sitePort, '/api/event/create', { method: 'POST', body: { type: 'x' } })).status).toBe(
      400,
    )
    expect((await send(sitePort, '/api/no-such-api')).status).toBe(404)
    expect((await send(sitePort, '/healthz')).status).toBe(200)
    const phone = getPhoneBody(testMarketplaceFacts(), {})
    expect((await send(sitePort, '/api/mediaalpha/get-phone', { method: 'POST', body: phone })).status).toBe(
      200,
    )
    const signIn = { email: 'nobody@example.com', password: 'wrong password' }
    expect((await send(sitePort, '/api/_auth/session', { method: 'POST', body: signIn })).status).toBe(401)

    const scrape = await send(scraper.port, '/metrics')
    expect(scrape.status).toBe(200)
    expect(scrape.type).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = scrape.body
    expect(sample(text, 'funnelworks_http_requests_total{kind="api",status_class="2xx"}')).toBe(2)
    expect(sample(text, 'funnelworks_http_requests_total{kind="api",status_class="4xx"}')).toBe(2)
    expect(sample(text, 'funnelworks_http_requests_total{kind="health",status_class="2xx"}')).toBe(1)
    expect(sample(text, 'funnelworks_http_requests_total{kind="control-center",status_class="4xx"}')).toBe(1)
    expect(
      sample(text, 'funnelworks_http_request_duration_seconds_count{kind="api",status_class="4xx"}'),
    ).toBe(2)
    expect(sample(text, 'funnelworks_events_accepted_total')).toBe(1)
    expect(sample(text, 'funnelworks_event_requests_rejected_total{reason="invalid"}')).toBe(1)
    expect(sample(text, 'funnelworks_event_queue_depth')).toBe(0)
    expect(sample(text, 'funnelworks_marketplace_requests_total{endpoint="get-phone",outcome="ok"}')).toBe(1)
    expect(sample(text, 'funnelworks_marketplace_breaker_state{state="closed"}')).toBe(1)
    expect(sample(text, 'funnelworks_phone_leases_total{result="leased"}')).toBe(1)
    expect(sample(text, 'funnelworks_sign_in_failures_total')).toBe(1)
    expect(sample(text, 'funnelworks_publications_total{kind="rollback"}')).toBe(0)
    expect(sample(text, 'funnelworks_content_degraded')).toBe(0)
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m)
    expect(text).toMatch(/^process_cpu_seconds_total \d/m)

    // Every family has a TYPE and a non-empty HELP; every sample belongs to a family.
    const families = new Map<string, { help?: string; type?: string }>()
    for (const m of text.matchAll(/^# (HELP|TYPE) (\S+) (.*)$/gm)) {
      const f = families.get(m[2]!) ?? {}
      f[m[1] === 'HELP' ? 'help' : 'type'] = m[3]
      families.set(m[2]!, f)
    }
    for (const [name, f] of families) {
      expect(f.help?.trim(), `${name} has help text`).toBeTruthy()
      expect(f.type, `${name} has a type`).toBeTruthy()
    }
    for (const line of text.split('\n').filter((l) => l && !l.startsWith('#'))) {
      const name = line.split(/[{ ]/)[0]!
      const family = [name, name.replace(/_(bucket|sum|count)$/, '')].find((n) => families.has(n))
      expect(family, `${line} belongs to a family with help text`).toBeDefined()
    }
  })

  it('answers nothing but GET /metrics, and nothing to a brand host', async () => {
    expect((await send(scraper.port, '/')).status).toBe(404)
    expect((await send(scraper.port, '/healthz')).status).toBe(404)
    expect((await send(scraper.port, '/metrics', { method: 'POST', body: {} })).status).toBe(405)
    expect((await send(scraper.port, '/metrics', { host: 'm10.localhost' })).status).toBe(404)
    expect((await send(scraper.port, '/metrics', { host: `localhost:${scraper.port}` })).status).toBe(200)
    // The site port never answers it: tests/e2e/metrics.e2e.ts sees the brand's normal 404 page.
  })
})

describe('RequestMetrics', () => {
  it('files a request under its kind, status class and latency bucket', () => {
    const r = new RequestMetrics()
    r.record('page', 200, performance.now())
    r.record('page', 304, performance.now())
    r.record('funnel', 503, performance.now() - 30)
    // An unknown method's 501 is the client's fault: a 4xx for the alerts.
    r.record('other', 501, performance.now())
    expect(r.count('other', '5xx')).toBe(0)
    expect(r.count('other', '4xx')).toBe(1)
    expect(r.count('page', '2xx')).toBe(1)
    expect(r.count('page', '3xx')).toBe(1)
    expect(r.count('funnel', '5xx')).toBe(1)
    const text = r.exposition()
    // 30 ms lies above the 25 ms bucket and within the 50 ms one.
    expect(text).toContain(
      'funnelworks_http_request_duration_seconds_bucket{kind="funnel",status_class="5xx",le="0.025"} 0',
    )
    expect(text).toContain(
      'funnelworks_http_request_duration_seconds_bucket{kind="funnel",status_class="5xx",le="0.05"} 1',
    )
    expect(text).toContain(
      'funnelworks_http_request_duration_seconds_count{kind="funnel",status_class="5xx"} 1',
    )
  })
})
