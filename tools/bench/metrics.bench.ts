/**
 * npm run bench -- metrics: what counting every request costs the hottest path (docs/decisions/0710).
 * Two production servers, METRICS_PORT off and on, the same cached landing page (answered on the fast
 * path, decision 0530) under autocannon in alternating rounds, best of each; then one scrape of the
 * server with metrics, to show its page count matches the requests made.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import {
  buildProductionBundle,
  PROJECT_ROOT,
  type ServerProcess,
  startServerProcess,
} from '../../tests/e2e/server-process'
import { pageUrlFor } from '../size-budget'

const CONNECTIONS = 50
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5)
const ROUNDS = 4

function get(port: number, path: string, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
        let body = ''
        res.on('data', (c) => {
          body += c
        })
        res.on('end', () => resolve(body))
      })
      .on('error', reject)
  })
}

/** CPU time a process has used so far (user + system, Linux), in µs. */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  // utime and stime are fields 14 and 15 of the line (11 and 12 after the command), in clock ticks.
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100

/**
 * Throughput and p99 depend on what else the machine runs; the server's CPU time per request much
 * less: both are reported.
 */
async function load(server: ServerProcess, path: string, host: string) {
  const opts = { url: `http://127.0.0.1:${server.port}${path}`, connections: CONNECTIONS, headers: { host } }
  const cpu = cpuMicros(server.child.pid!)
  const r = await autocannon({ ...opts, duration: DURATION_S })
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    total: r.requests.total,
    cpuPerRequest: (cpuMicros(server.child.pid!) - cpu) / r.requests.total,
    errors: r.errors + r.non2xx,
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export default async function run(): Promise<void> {
  console.log('building the production bundle…')
  buildProductionBundle()
  const start = (env: Record<string, string>) =>
    startServerProcess({
      LOG_LEVEL: 'error',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-metrics-')),
      ...env,
    })
  const servers: { name: string; server: ServerProcess }[] = [
    { name: 'metrics off', server: await start({}) },
    { name: 'metrics on', server: await start({ METRICS_PORT: '0' }) },
  ]
  try {
    const url = new URL(pageUrlFor(['landing', 'home'], 'http://{brand}.localhost', PROJECT_ROOT)!)
    const [host, path] = [url.host, url.pathname]
    // Rendered once, then answered from the cache before the middleware chain.
    for (const { server } of servers) for (let i = 0; i < 3; i++) await get(server.port, path, host)
    const best: Record<string, Awaited<ReturnType<typeof load>>> = {}
    const cpu: Record<string, number[]> = {}
    let sent = 0
    for (let round = 0; round < ROUNDS; round++)
      // Each server first in every other round: neither always runs on the machine the other left.
      for (const { name, server } of round % 2 ? [...servers].reverse() : servers) {
        const r = await load(server, path, host)
        if (name === 'metrics on') sent += r.total
        cpu[name] = [...(cpu[name] ?? []), r.cpuPerRequest]
        if (!best[name] || r.rps > best[name].rps) best[name] = r
      }
    console.log(
      `\ncached page ${path} (${host}), autocannon ${CONNECTIONS} connections, ${DURATION_S} s each, best of ${ROUNDS} rounds, the order swapped each round`,
    )
    for (const { name } of servers) {
      const r = best[name]!
      console.log(
        `${name.padEnd(14)}${String(Math.round(r.rps)).padEnd(10)}req/s  p99 ${r.p99} ms  server CPU ${median(cpu[name]!).toFixed(1)} µs/request (median of rounds)${r.errors ? `  errors ${r.errors}` : ''}`,
      )
    }
    console.log(
      `on / off: throughput ${(best['metrics on']!.rps / best['metrics off']!.rps).toFixed(3)}, CPU per request ${(median(cpu['metrics on']!) / median(cpu['metrics off']!)).toFixed(3)}`,
    )
    const on = servers[1]!.server
    const metricsPort = Number(/metrics on http:\/\/[^:]+:(\d+)\//.exec(on.output())?.[1])
    const text = await get(metricsPort, '/metrics', `127.0.0.1:${metricsPort}`)
    const counted = Number(
      /^funnelworks_http_requests_total\{kind="page",status_class="2xx"\} (\d+)/m.exec(text)?.[1],
    )
    console.log(`scraped: ${counted} page requests counted; autocannon sent ${sent} (plus 3 warm-up)`)
  } finally {
    for (const { server } of servers) await server.stop()
  }
}
