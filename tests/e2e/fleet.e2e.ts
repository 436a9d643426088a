/**
 * The README's deployment, small (issue 30, acceptance 5): two instances started as the systemd unit
 * starts them, on one PostgreSQL and one bare remote, behind nginx with the README's upstream. One
 * publish reaches both; one instance SIGKILLed under page and event traffic loses no acknowledged
 * event, fails no page, and comes back serving the published commit. `npm run bench -- fleet` runs
 * the same under wrk with N instances and more faults.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore } from '../../server/store/open-store'
import { dropPostgresSchema, uniquePostgresUrl } from '../../server/store/test-databases'
import { resend, startEventLoad, storedOnce } from './event-load'
import {
  converged,
  ENV_FILE,
  type Fleet,
  PUBLISH_CONVERGENCE_MS,
  servedCommit,
  startFleet,
  startPageLoad,
  UNIT_FILE,
} from './fleet'
import { httpGet } from './http'
import { type RunningNginx, readmeNginxBlocks, readmeUpstreamParameters } from './nginx'
import { PROJECT_ROOT } from './server-process'
import { prepareEdit, signIn } from './staff-publish'

const HEADLINE = 'Grocery help, published on one instance'
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze'
/**
 * Room over the 2 s limit for a machine running the other e2e files beside this one (the other
 * instance fetches and builds the commit on a starved CPU); `npm run bench -- fleet` holds 2 s.
 */
const BUSY_MACHINE_MS = 3_000

let fleet: Fleet
let nginx: RunningNginx
const pg = uniquePostgresUrl('fw_fleet_e2e')

beforeAll(async () => {
  fleet = await startFleet(pg.url, 2)
  nginx = await fleet.nginx(fleet.ports, { accessLog: true })
}, 120_000)

afterAll(async () => {
  await fleet?.stop()
  await dropPostgresSchema(pg.schema)
})

const page = (port: number) => httpGet(port, '/grocery', 'm10.localhost')
const headlineOf = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1]

describe('two instances behind nginx, deployed as the README says', () => {
  it('runs the very files the README shows', () => {
    const readme = readFileSync(`${PROJECT_ROOT}/README.md`, 'utf8')
    for (const block of readmeNginxBlocks()) expect(readme).toContain(block)
    expect(readme).toContain(`\`\`\`ini\n${readFileSync(UNIT_FILE, 'utf8')}\`\`\``)
    expect(readme).toContain(`\`\`\`sh\n${readFileSync(ENV_FILE, 'utf8')}\`\`\``)
  })

  // verify also checks that ExecStart's /usr/bin/node exists: only where both are installed.
  it.skipIf(!existsSync(SYSTEMD_ANALYZE) || !existsSync('/usr/bin/node'))(
    'the unit is one systemd accepts (systemd-analyze verify)',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'fw-unit-'))
      const unit = join(dir, 'funnelworks@3000.service')
      copyFileSync(UNIT_FILE, unit)
      const r = spawnSync(SYSTEMD_ANALYZE, ['verify', unit], { encoding: 'utf8' })
      expect(`${r.stdout}${r.stderr}`).toBe('')
      expect(r.status).toBe(0)
    },
  )

  it('a publish on one instance is served by both within the limit', async () => {
    const [a, b] = fleet.ports
    const before = await servedCommit(a)
    expect(before).toMatch(/^[0-9a-f]{40}$/)
    expect(await servedCommit(b)).toBe(before)
    const cookie = await signIn(a, fleet.staff)
    const { publish } = await prepareEdit(a, cookie, {
      file: 'definitions/pages/grocery.json',
      pointer: '/headline',
      value: HEADLINE,
    })
    const t = performance.now()
    const commit = await publish()
    const answered = performance.now()
    // From the publisher's answer (live on the first instance) until the other serves it too.
    const ms = await converged(fleet.ports, commit, answered, PUBLISH_CONVERGENCE_MS + BUSY_MACHINE_MS)
    console.log(
      `publish answered in ${Math.round(answered - t)} ms; served by both instances ${Math.round(ms)} ms later (issue 30: ${PUBLISH_CONVERGENCE_MS} ms)`,
    )
    expect(ms).toBeLessThanOrEqual(PUBLISH_CONVERGENCE_MS + BUSY_MACHINE_MS)
    expect(headlineOf((await page(b)).body)).toBe(HEADLINE)
  })

  it('a SIGKILLed instance: pages fail over, acknowledged events are stored once, it comes back', {
    timeout: 90_000,
  }, async () => {
    const [, killed] = fleet.ports
    const commit = await servedCommit(fleet.ports[0])
    const events = startEventLoad(nginx.port, 4)
    const pages = startPageLoad(nginx.port, 4)
    await expect.poll(() => events.acked.length, { timeout: 20_000, interval: 50 }).toBeGreaterThan(100)
    const inFlight = events.inFlight()
    const killedAt = Date.now() / 1000
    await fleet.kill(1)
    // The process is gone (its exit seen): requests sent until then may have reached it.
    const goneAt = Date.now()
    const ackedAtKill = events.acked.length
    await expect
      .poll(() => events.acked.length, { timeout: 20_000, interval: 50 })
      .toBeGreaterThan(ackedAtKill + 100)
    await Promise.all([events.stop(), pages.stop()])

    // Pages: every GET answered, those cut on the killed instance asked again of the other.
    expect(pages.failed).toEqual([])
    // Events: only POSTs sent to the killed instance before it was gone failed; nginx sent none twice.
    const failedPosts = nginx.requests().filter((r) => r.status >= 500)
    expect(failedPosts.length).toBe(events.failed.length)
    for (const b of events.failed) expect(b.sentAt).toBeLessThanOrEqual(goneAt)
    for (const r of failedPosts) {
      expect(r.method).toBe('POST')
      expect(r.upstreams).toEqual([`127.0.0.1:${killed}`])
      expect(r.at).toBeGreaterThanOrEqual(killedAt - 0.1)
    }
    const retried = nginx
      .requests()
      .filter((r) => r.method === 'GET' && r.upstreams.length > 1 && r.upstreams[0] === `127.0.0.1:${killed}`)
    console.log(
      `after the kill: ${failedPosts.length} event requests failed (${inFlight} in flight at the signal, ${goneAt - killedAt * 1000} ms until the process was gone), ${retried.length} page requests retried on the other instance`,
    )
    // The browser's queue sends a failed batch again; the event id keeps it once (decision 0302).
    const resent = await resend(nginx.port, events.failed)
    expect(resent.length).toBe(events.failed.reduce((n, b) => n + b.events.length, 0))
    const store = await openStore({ databaseUrl: pg.url, dataDir: null, poolSize: 1 })
    try {
      expect(await storedOnce(store.db, [...events.acked, ...resent])).toEqual({
        missing: [],
        duplicated: [],
      })
    } finally {
      await store.close()
    }

    // Restarted (systemd's Restart=always): it serves the published commit and takes traffic again.
    await fleet.start(1)
    expect(await servedCommit(killed)).toBe(commit)
    const restartedAt = Date.now() / 1000
    const { failTimeoutS } = readmeUpstreamParameters()
    const served = async () => {
      for (let i = 0; i < 4; i++)
        await httpGet(nginx.port, `/?gclid=back-${Date.now()}-${i}`, 'm10.localhost')
      return nginx.requests().some((r) => r.at >= restartedAt && r.upstreams.at(-1) === `127.0.0.1:${killed}`)
    }
    await expect.poll(served, { timeout: (failTimeoutS + 5) * 1000, interval: 200 }).toBe(true)
  })
})
