/**
 * /metrics of the production server (issue 30 acceptance 4, docs/decisions/0710), started in this
 * process with METRICS_PORT on the e2e build: a page twice (rendered, then from the cache before the
 * middleware chain), a funnel step, an event, a 404, then a scrape; and a brand host's /metrics is
 * the brand's normal 404 page.
 */
import { rmSync } from 'node:fs'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config'
import { type RunningServer, startServer } from '../../server/index'
import { sampleEvent } from '../../server/store/sample-event'
import { httpGet } from './http'
import { newDataDir } from './server-process'

const HOST = 'm10.localhost'
let running: RunningServer
let dataDir: string

beforeAll(async () => {
  dataDir = newDataDir('fw-metrics-')
  running = await startServer(
    loadConfig({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      METRICS_PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    }),
  )
})
afterAll(async () => {
  await running?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

async function scrape(): Promise<string> {
  const r = await httpGet(running.metricsPort!, '/metrics', `localhost:${running.metricsPort}`)
  expect(r.status).toBe(200)
  return r.body
}

function postEvent(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: running.port,
        path: '/api/event/create',
        method: 'POST',
        headers: { host: HOST, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify(sampleEvent()))
  })
}

describe('GET /metrics on METRICS_PORT', () => {
  it('counts a page miss then a hit, a funnel step, an event and a 404; every metric has help text', async () => {
    const before = await scrape()
    const miss = await httpGet(running.port, '/privacy', HOST)
    const hit = await httpGet(running.port, '/privacy', HOST)
    expect([miss.status, hit.status]).toEqual([200, 200])
    expect((await httpGet(running.port, '/quiz/otc', HOST)).status).toBe(200)
    expect(await postEvent()).toBe(200)
    expect((await httpGet(running.port, '/no-such-page', HOST)).status).toBe(404)

    const text = await scrape()
    const moved = (series: string) => (sample(text, series) ?? 0) - (sample(before, series) ?? 0)
    expect(moved('funnelworks_http_requests_total{kind="page",status_class="2xx"}')).toBe(2)
    expect(moved('funnelworks_http_requests_total{kind="funnel",status_class="2xx"}')).toBe(1)
    expect(moved('funnelworks_http_requests_total{kind="page",status_class="4xx"}')).toBe(1)
    expect(moved('funnelworks_http_requests_total{kind="api",status_class="2xx"}')).toBe(1)
    expect(moved('funnelworks_http_request_duration_seconds_count{kind="page",status_class="2xx"}')).toBe(2)
    expect(moved('funnelworks_html_cache_misses_total')).toBeGreaterThanOrEqual(1)
    expect(moved('funnelworks_html_cache_hits_total{layer="fast-path"}')).toBe(1)
    expect(moved('funnelworks_events_accepted_total')).toBe(1)

    // The content served: the commit /healthz names, not degraded, reconciled moments ago.
    const health = JSON.parse((await httpGet(running.port, '/healthz', HOST)).body)
    expect(sample(text, `funnelworks_content_info{commit="${health.commit}",source="git"}`)).toBe(1)
    expect(sample(text, 'funnelworks_content_degraded')).toBe(0)
    expect(sample(text, 'funnelworks_content_reconcile_lag_seconds')).toBeLessThan(60)

    for (const m of text.matchAll(/^# TYPE (\S+) /gm))
      expect(text, `${m[1]} has help text`).toMatch(new RegExp(`^# HELP ${m[1]} \\S`, 'm'))
  })

  it('a brand host never answers /metrics: its normal 404 page, on the site port and on the metrics port', async () => {
    const notFound = await httpGet(running.port, '/no-such-page', HOST)
    const metrics = await httpGet(running.port, '/metrics', HOST)
    expect(metrics.status).toBe(404)
    expect(metrics.headers['content-type']).toBe(notFound.headers['content-type'])
    expect(metrics.body).toContain('<title>')
    expect(/<title>[^<]*<\/title>/.exec(metrics.body)?.[0]).toBe(
      /<title>[^<]*<\/title>/.exec(notFound.body)?.[0],
    )
    expect(metrics.body).not.toContain('funnelworks_http_requests_total')
    expect((await httpGet(running.metricsPort!, '/metrics', HOST)).status).toBe(404)
  })
})
