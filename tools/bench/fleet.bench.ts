/**
 * npm run bench -- fleet [--instances N] [--duration S]: the README's deployment (decision 0320) under
 * load and faults (issue 30). An embedded PostgreSQL, a bare git remote, N instances (default 3)
 * started as docs/deploy/funnelworks@.service starts them, and Debian's nginx in front with
 * docs/nginx/funnelworks.conf. Under wrk on public pages (a new click id per request, so each reaches
 * an instance as paid traffic does) and a stream of POST /api/event/create from a Node client that
 * records every acknowledged event id:
 *   1. a publish on one instance, through the control center's API as a publisher: every instance
 *      serves the new commit (GET /healthz) within 2 s of the answer, no request fails;
 *   2. one instance SIGKILLed: the only failed requests are event POSTs that were in flight on it
 *      (nginx's access log names the upstream of each), every acknowledged event is stored exactly
 *      once (queried by id), and so is every failed batch sent again as the browser's queue does;
 *   3. a publish while it is down, then it restarts (after the unit's RestartSec): it serves that
 *      commit as soon as it answers and takes traffic again within fail_timeout;
 *   4. the LISTEN connections cut (pg_terminate_backend): a publish still reaches every instance within
 *      the reconcile interval.
 * Before that, throughput and p99 through nginx for 1, 2 and N instances. Exits non-zero when a
 * scenario misses its limit.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { CONTENT_RECONCILE_MS } from '../../server/content/content-fleet'
import { setLogLevel } from '../../server/log'
import { openStore } from '../../server/store/open-store'
import { pgConnection } from '../../server/store/postgres-db'
import { type EventLoad, resend, startEventLoad, storedOnce } from '../../tests/e2e/event-load'
import {
  converged,
  type Fleet,
  PUBLISH_CONVERGENCE_MS,
  readUnit,
  servedCommit,
  startFleet,
} from '../../tests/e2e/fleet'
import {
  type LoggedRequest,
  NGINX_MISSING,
  NGINX_PATH,
  type RunningNginx,
  readmeUpstreamParameters,
} from '../../tests/e2e/nginx'
import { buildProductionBundle } from '../../tests/e2e/server-process'
import { prepareEdit, signIn } from '../../tests/e2e/staff-publish'
import { startEmbeddedPostgres } from '../../tests/setup/embedded-postgres'
import type { BenchTargets } from './targets'

const WRK_PATH = process.env.WRK_PATH ?? '/usr/bin/wrk'
const WRK_CONNECTIONS = 50
const EVENT_CLIENTS = 8
const HOST = 'm10.localhost'
const GROCERY = 'definitions/pages/grocery.json'

interface WrkResult {
  rps: number
  p99Ms: number
  requests: number
  /** Non-2xx/3xx answers plus socket errors (connect, read, write, timeout). */
  errors: number
  detail: string
}

/** wrk's latency figures (e.g. 812.00us, 4.20ms, 1.02s) in milliseconds. */
function ms(figure: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(figure)
  if (!m) throw new Error(`wrk latency "${figure}" not understood`)
  return Number(m[1]) * { us: 0.001, ms: 1, s: 1000, m: 60_000 }[m[2] as 'us' | 'ms' | 's' | 'm']
}

/**
 * wrk for `seconds` on the proxy at `port`: the brand's home page, each request with a click id of its
 * own tagged `tag` (a Lua script), or always the same URL when `tag` is null; accepting brotli and
 * gzip as browsers do.
 */
function wrk(port: number, seconds: number, tag: string | null): Promise<WrkResult> {
  const script =
    tag === null
      ? 'function request() return wrk.format("GET", "/") end'
      : `local threads = 0
function setup(thread) threads = threads + 1; thread:set("tid", threads) end
local n = 0
function request() n = n + 1; return wrk.format("GET", "/?gclid=${tag}-" .. tid .. "-" .. n) end`
  // Read by each of wrk's threads: a file, not a pipe.
  const file = join(mkdtempSync(join(tmpdir(), 'fw-wrk-')), 'load.lua')
  writeFileSync(file, script)
  return new Promise((resolve, reject) => {
    const child = spawn(
      WRK_PATH,
      [
        '-t2',
        `-c${WRK_CONNECTIONS}`,
        `-d${seconds}s`,
        '--latency',
        '--timeout',
        '10s',
        '-s',
        file,
        '-H',
        `Host: ${HOST}`,
        '-H',
        'Accept-Encoding: br, gzip',
        `http://127.0.0.1:${port}/`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    child.stderr.on('data', (d) => {
      out += d
    })
    child.once('error', reject)
    child.once('exit', (code) => {
      rmSync(dirname(file), { recursive: true, force: true })
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${out}`))
      const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? 0)
      const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
      const socketErrors = socket ? socket.slice(1).reduce((n, x) => n + Number(x), 0) : 0
      const non2xx = num(/Non-2xx or 3xx responses: (\d+)/)
      const p99 = /^\s+99%\s+(\S+)\s*$/m.exec(out)?.[1]
      if (!p99) return reject(new Error(`wrk printed no latency distribution:\n${out}`))
      resolve({
        rps: num(/Requests\/sec:\s+([\d.]+)/),
        p99Ms: ms(p99),
        requests: num(/(\d+) requests in/),
        errors: socketErrors + non2xx,
        detail: `${non2xx} non-2xx${socket ? `, ${socket[0].toLowerCase()}` : ''}`,
      })
    })
  })
}

const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] : Number.NaN
const pad = (s: string | number, n: number) => String(s).padEnd(n)
const sleep = (msToWait: number) => new Promise((r) => setTimeout(r, msToWait))
const round = (n: number) => Math.round(n)

/** Page and event load together for `seconds`; what each saw. */
async function underLoad<T>(
  nginx: RunningNginx,
  seconds: number,
  tag: string,
  during: (events: EventLoad) => Promise<T>,
): Promise<{ pages: WrkResult; events: EventLoad; result: T; seconds: number }> {
  const events = startEventLoad(nginx.port, EVENT_CLIENTS)
  const t = performance.now()
  const pagesRun = wrk(nginx.port, seconds, tag)
  try {
    const result = await during(events)
    const pages = await pagesRun
    await events.stop()
    return { pages, events, result, seconds: (performance.now() - t) / 1000 }
  } catch (e) {
    await pagesRun.catch(() => {})
    await events.stop()
    throw e
  }
}

export default async function run(targets: BenchTargets): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: { instances: { type: 'string', default: '3' }, duration: { type: 'string', default: '8' } },
  })
  const count = Number(values.instances)
  const duration = Number(values.duration)
  if (!Number.isInteger(count) || count < 2 || count > 8)
    throw new Error(`--instances ${values.instances}: a whole number from 2 to 8`)
  if (!(duration >= 3 && duration <= 120)) throw new Error(`--duration ${values.duration}: seconds, 3–120`)
  if (!existsSync(WRK_PATH))
    throw new Error(`wrk not found at ${WRK_PATH}: sudo apt-get install -y wrk (or set WRK_PATH)`)
  if (!existsSync(NGINX_PATH)) throw new Error(NGINX_MISSING)
  setLogLevel('error')
  console.log('building the production bundle…')
  buildProductionBundle()
  const verdict = (what: string, value: string, limit: string, ok: boolean) => {
    console.log(`  ${targets.check(what, value, limit, ok)}: ${what}: ${value} (${limit})`)
  }
  const postgres = await startEmbeddedPostgres({
    database: 'funnelworks',
    fsync: true,
    purpose: 'the fleet bench',
  })
  let fleet: Fleet | undefined
  const admin = new pg.Client(pgConnection(postgres.url))
  try {
    await admin.connect()
    console.log(`starting ${count} instances as docs/deploy/funnelworks@.service does…`)
    fleet = await startFleet(postgres.url, count)
    const { ports } = fleet
    const addr = (i: number) => `127.0.0.1:${ports[i]}`
    const cookie = await signIn(ports[0], fleet.staff)
    let edits = 0
    /** A committed edit on a new branch; resolves its publish, to call when wanted. */
    const nextEdit = async () =>
      (
        await prepareEdit(ports[0], cookie, {
          file: GROCERY,
          pointer: '/headline',
          value: `Fleet headline ${++edits}`,
        })
      ).publish

    // Throughput through nginx for 1, 2 and N instances (the same N running; the upstream lists k).
    console.log(
      `\nthroughput through nginx (${NGINX_PATH}, worker_processes auto), wrk -c${WRK_CONNECTIONS} on ${HOST}/?gclid=<new each time> for ${duration} s, with ${EVENT_CLIENTS} event clients posting 1–3 events a request:`,
    )
    console.log(
      `${pad('instances', 11)}${pad('pages/s', 10)}${pad('p99 ms', 9)}${pad('events/s', 10)}${pad('event p99 ms', 14)}failed`,
    )
    // Every instance renders its pages once and warms up before anything is measured.
    const warm = await fleet.nginx(ports, { workers: 'auto' })
    await wrk(warm.port, 3, 'warm')
    await warm.stop()
    const sizes = [...new Set([1, 2, count])]
    const throughput: { k: number; rps: number }[] = []
    for (const k of sizes) {
      const nginx = await fleet.nginx(ports.slice(0, k), { workers: 'auto' })
      const run = await underLoad(nginx, duration, `k${k}`, () => Promise.resolve())
      await nginx.stop()
      throughput.push({ k, rps: run.pages.rps })
      console.log(
        `${pad(k, 11)}${pad(round(run.pages.rps), 10)}${pad(run.pages.p99Ms.toFixed(1), 9)}${pad(round(run.events.acked.length / run.seconds), 10)}${pad(pct(run.events.latencies, 0.99).toFixed(1), 14)}pages: ${run.pages.detail}; event requests: ${run.events.failed.length}`,
      )
    }
    // The same page at one URL: nginx answers from its cache and asks no instance (decision 0511).
    const cached = await fleet.nginx(ports, { workers: 'auto' })
    const hits = await wrk(cached.port, duration, null)
    await cached.stop()
    console.log(
      `${pad('(cache hit)', 11)}${pad(round(hits.rps), 10)}${pad(hits.p99Ms.toFixed(1), 9)}${pad('', 24)}pages: ${hits.detail} — one URL, answered by nginx's cache`,
    )
    console.log(
      `load average ${loadavg()[0].toFixed(1)} (everything else running on this machine counts too)`,
    )
    console.log(
      `on this ${cpus().length}-core machine throughput cannot scale with N: nginx, wrk, the event client, PostgreSQL and every instance share the same ${cpus().length} cores, so more instances split the same CPU (${throughput.map((t) => `${t.k}: ${round(t.rps)}/s`).join(', ')}). On separate machines each instance adds its own cores.`,
    )

    const nginx = await fleet.nginx(ports, { workers: 'auto', accessLog: true })
    const failures = (from: number) => nginx.requests().filter((r) => r.at >= from && r.status >= 500)
    const now = () => Date.now() / 1000

    // 1. A publish on instance 0 under load.
    console.log(
      `\n1. publish on one instance under load (limit: every instance within ${PUBLISH_CONVERGENCE_MS} ms, 0 failed requests)`,
    )
    const publish1 = await nextEdit()
    const from1 = now()
    const s1 = await underLoad(nginx, duration, 's1', async () => {
      await sleep(1_500)
      const t = performance.now()
      const commit = await publish1()
      const answered = performance.now()
      const convergedMs = await converged(ports, commit, answered, 30_000)
      return { publishMs: answered - t, convergedMs, commit }
    })
    const failed1 = failures(from1).length + s1.pages.errors + s1.events.failed.length
    console.log(
      `  publish answered in ${round(s1.result.publishMs)} ms; every instance served ${s1.result.commit.slice(0, 8)} ${round(s1.result.convergedMs)} ms later; pages ${round(s1.pages.rps)}/s (${s1.pages.detail}), ${s1.events.acked.length} events acknowledged, ${s1.events.failed.length} failed`,
    )
    verdict(
      '1. publish → every instance',
      `${round(s1.result.convergedMs)} ms`,
      `≤ ${PUBLISH_CONVERGENCE_MS} ms`,
      s1.result.convergedMs <= PUBLISH_CONVERGENCE_MS,
    )
    verdict('1. failed requests during the publish', String(failed1), '0', failed1 === 0)

    // 2. SIGKILL one instance under load.
    const victim = count - 1
    console.log(`\n2. SIGKILL the instance on ${addr(victim)} under load`)
    let inFlightAtKill = 0
    let killedAt = 0
    let goneAt = 0
    const s2 = await underLoad(nginx, duration, 's2', async (events) => {
      await sleep(2_000)
      inFlightAtKill = events.inFlight()
      killedAt = now()
      await fleet!.kill(victim)
      // Its exit seen: requests sent until then may have reached it (the kernel accepts and reads for
      // a dying process until its sockets close).
      goneAt = Date.now()
    })
    const logged2 = nginx.requests().filter((r) => r.at >= killedAt - 0.05)
    const failed2 = failures(killedAt - 0.05)
    const onVictim = (r: LoggedRequest) =>
      r.method === 'POST' && r.upstreams.length === 1 && r.upstreams[0] === addr(victim)
    const otherFailures = failed2.filter((r) => !onVictim(r))
    const retried = logged2.filter(
      (r) => r.method === 'GET' && r.upstreams.length > 1 && r.upstreams.includes(addr(victim)),
    )
    const failedEvents = s2.events.failed.reduce((n, b) => n + b.events.length, 0)
    console.log(
      `  pages ${round(s2.pages.rps)}/s (${s2.pages.detail}); ${retried.length} page requests nginx asked the killed instance and then another; ${failed2.length} requests failed (${failed2.filter(onVictim).length} event POSTs on the killed instance, ${inFlightAtKill} event requests were in flight at the kill), ${otherFailures.length} others`,
    )
    verdict(
      '2. failed page requests',
      String(s2.pages.errors),
      '0 (nginx asks the next instance)',
      s2.pages.errors === 0,
    )
    // In flight on the killed instance: sent before it was gone (the client's clock), and nginx's
    // log names that instance as the only one asked.
    const sentAfterGone = s2.events.failed.filter((b) => b.sentAt > goneAt)
    verdict(
      '2. failed event requests',
      `${s2.events.failed.length}: ${failed2.filter(onVictim).length} POSTs nginx sent to the killed instance alone, ${sentAfterGone.length} sent after it was gone, ${otherFailures.length} other failures`,
      `only requests in flight on the killed instance (${inFlightAtKill} event requests in flight at the signal, ${goneAt - round(killedAt * 1000)} ms until the process was gone)`,
      otherFailures.length === 0 && sentAfterGone.length === 0 && failed2.length === s2.events.failed.length,
    )
    const resent = await resend(nginx.port, s2.events.failed)
    const acked = [...s1.events.acked, ...s2.events.acked, ...resent]
    const store = await openStore({ databaseUrl: postgres.url, dataDir: null, poolSize: 1 })
    let stored: { missing: string[]; duplicated: string[] }
    try {
      stored = await storedOnce(store.db, acked)
    } finally {
      await store.close()
    }
    console.log(
      `  ${failedEvents} events in the failed batches, sent again as the browser's queue does: ${resent.length} acknowledged; ${acked.length} acknowledged events queried by id: ${stored.missing.length} missing, ${stored.duplicated.length} duplicated`,
    )
    verdict('2. acknowledged events lost', String(stored.missing.length), '0', stored.missing.length === 0)
    verdict(
      '2. acknowledged events duplicated',
      String(stored.duplicated.length),
      '0',
      stored.duplicated.length === 0,
    )
    verdict(
      '2. failed batches acknowledged when sent again',
      `${resent.length} of ${failedEvents}`,
      'all',
      resent.length === failedEvents,
    )

    // 3. A publish while it is down; then it restarts as systemd would (Restart=always, RestartSec).
    const { failTimeoutS } = readmeUpstreamParameters()
    const { restartSec } = readUnit()
    console.log(`\n3. a publish while it is down, then it restarts after RestartSec=${restartSec}`)
    const whileDown = await (await nextEdit())()
    await converged(
      ports.filter((_, i) => i !== victim),
      whileDown,
      performance.now(),
      30_000,
    )
    await sleep(restartSec * 1000)
    const t3 = performance.now()
    await fleet.start(victim)
    const startedMs = performance.now() - t3
    const firstCommit = await servedCommit(ports[victim])
    const back = now()
    const s3 = await underLoad(nginx, failTimeoutS + 3, 's3', async () => {
      const deadline = performance.now() + (failTimeoutS + 3) * 1000
      while (performance.now() < deadline) {
        const first = nginx
          .requests()
          .find((r) => r.at >= back && r.upstreams.at(-1) === addr(victim) && r.status < 500)
        if (first) return first.at - back
        await sleep(100)
      }
      return null
    })
    console.log(
      `  started in ${round(startedMs)} ms serving ${firstCommit?.slice(0, 8)} (published while it was down: ${whileDown.slice(0, 8)}); first request through nginx ${s3.result === null ? 'never' : `${s3.result.toFixed(2)} s`} after it answered; pages ${round(s3.pages.rps)}/s (${s3.pages.detail}), ${s3.events.failed.length} event requests failed`,
    )
    verdict(
      '3. restarted instance serves the latest publication',
      firstCommit === whileDown ? 'yes' : `no (${firstCommit})`,
      'at its first answer',
      firstCommit === whileDown,
    )
    verdict(
      '3. restarted instance takes traffic again',
      s3.result === null ? 'never' : `${s3.result.toFixed(2)} s`,
      `≤ fail_timeout ${failTimeoutS} s + 1 s`,
      s3.result !== null && s3.result <= failTimeoutS + 1,
    )
    const failed3 = s3.pages.errors + s3.events.failed.length
    verdict('3. failed requests while it rejoins', String(failed3), '0', failed3 === 0)

    // 4. The LISTEN connections cut: a publish must still reach every instance within the reconcile interval.
    console.log(
      `\n4. LISTEN connections terminated, then a publish (limit: the reconcile interval, ${CONTENT_RECONCILE_MS / 1000} s)`,
    )
    const publish4 = await nextEdit()
    const listeners = async () =>
      (
        await admin.query<{ pid: number; application_name: string }>(
          `SELECT pid, application_name FROM pg_stat_activity WHERE application_name LIKE 'funnelworks-listen-%'`,
        )
      ).rows
    const before = await listeners()
    const s4 = await underLoad(nginx, duration, 's4', async () => {
      await sleep(1_000)
      const cut = await admin.query<{ ok: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name LIKE 'funnelworks-listen-%'`,
      )
      const commit = await publish4()
      const convergedMs = await converged(ports, commit, performance.now(), CONTENT_RECONCILE_MS + 10_000)
      return { cut: cut.rows.filter((r) => r.ok).length, convergedMs }
    })
    await sleep(2_000)
    const after = await listeners()
    // How: each instance reconnects LISTEN (backoff from 0.5 s) and reconciles on reconnecting; the
    // 30 s reconcile loop bounds it when a notification is missed altogether (decision 0603).
    console.log(
      `  ${s4.result.cut} of ${before.length} LISTEN backends terminated; every instance served the publication ${round(s4.result.convergedMs)} ms after its answer; ${after.length} LISTEN connections again 2 s later; pages ${round(s4.pages.rps)}/s (${s4.pages.detail}), ${s4.events.failed.length} event requests failed`,
    )
    verdict(
      '4. LISTEN cut: publish → every instance',
      `${round(s4.result.convergedMs)} ms`,
      `≤ ${CONTENT_RECONCILE_MS} ms`,
      s4.result.cut === count && s4.result.convergedMs <= CONTENT_RECONCILE_MS,
    )
    const failed4 = s4.pages.errors + s4.events.failed.length
    verdict('4. failed requests', String(failed4), '0', failed4 === 0)
    if (nginx.errors().match(/\[(emerg|alert|crit)\]/))
      verdict('nginx error log', 'emerg/alert/crit lines', 'none', false)
  } finally {
    await admin.end().catch(() => {})
    await fleet?.stop()
    await postgres.stop()
  }
}
