/**
 * The README's deployment, as an operator runs it (issue 37, acceptance 4): two instances started as
 * the systemd unit starts them from `current`, behind nginx with the README's configuration, the
 * shared remote guarded by the README's pre-receive hook (every push below goes through it).
 * - A 5 MB image uploads through nginx: its body limit for the upload endpoint is the server's
 *   (IMAGE_UPLOAD_MAX_BYTES, one constant; decision 0330).
 * - The README's upgrade: a new release folder is built beside the running one, `current` is switched
 *   to it, and one instance is restarted on it under wrk: no page or asset answer but 2xx, while the
 *   other instance still runs the old release (decision 0332).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMAGE_UPLOAD_MAX_BYTES } from '../../engine/content/image-limits'
import { dropPostgresSchema, uniquePostgresUrl } from '../../server/store/test-databases'
import { type Fleet, servedCommit, startFleet } from './fleet'
import { httpGet, sendJson } from './http'
import { inlinedNginxConf, type RunningNginx, readmeUpstreamParameters } from './nginx'
import { captureOutput, PROJECT_ROOT } from './server-process'

const WRK_PATH = process.env.WRK_PATH ?? '/usr/bin/wrk'
const MB = 1024 * 1024
/** The image: noise, so PNG cannot shrink it below 5 MB (1340 × 1340 RGB ≈ 5.1 MB). */
const IMAGE_SIDE_PX = 1340
/** Seconds of load after the upgraded instance is back, with both releases serving. */
const MIXED_LOAD_S = 3

let fleet: Fleet
let nginx: RunningNginx
let release2: string | null = null
const pg = uniquePostgresUrl('fw_fleet_upgrade_e2e')

beforeAll(async () => {
  fleet = await startFleet(pg.url, 2, { remoteHook: true })
  nginx = await fleet.nginx(fleet.ports, { accessLog: true })
}, 120_000)

afterAll(async () => {
  await fleet?.stop()
  await dropPostgresSchema(pg.schema)
  if (release2) rmSync(release2, { recursive: true, force: true })
})

/**
 * A JSON call to the control center through nginx, as a browser on its standard port sends it: nginx
 * passes `Host` without a port ($host), and the browser's Origin names none either.
 */
async function cc(port: number, method: string, path: string, body?: unknown, cookie = '') {
  const r = await sendJson(port, 'ccc.localhost', method, path, body, cookie)
  return {
    status: r.status,
    json: (r.body ? JSON.parse(r.body) : {}) as Record<string, unknown>,
    cookie: r.cookie,
  }
}

/** POST of raw bytes through nginx, as the control center's Images screen sends an upload. */
function upload(port: number, path: string, bytes: Buffer, cookie: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          host: 'ccc.localhost',
          origin: 'http://ccc.localhost',
          cookie,
          'content-type': 'image/png',
          'content-length': bytes.length,
          'x-filename': encodeURIComponent('large-photo.png'),
        },
      },
      (res) => {
        let body = ''
        res.on('data', (c) => {
          body += c
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    // nginx may answer 413 before the whole body is sent, and close.
    req.on('error', reject)
    req.end(bytes)
  })
}

/** The build files a page names (stylesheets, scripts, preloads). */
const assetsOf = (html: string) => [
  ...new Set([...html.matchAll(/(?:href|src)="(\/assets\/[^"?]+)/g)].map((m) => m[1])),
]

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
}

/**
 * wrk on nginx, round-robin over `paths` on m10.localhost, each with a new paid-click id so nginx's
 * cache never answers (`proxy_no_cache`): every request reaches an instance, as a first one does.
 * Stops at SIGINT (or after 120 s) and reports answers that were not 2xx and socket errors.
 */
function startWrk(port: number, paths: string[], dir: string) {
  const script = join(dir, `load-${randomBytes(3).toString('hex')}.lua`)
  writeFileSync(
    script,
    `local paths = { ${paths.map((p) => JSON.stringify(p + (p.includes('?') ? '&' : '?'))).join(', ')} }
local threads = {}
local n = 0
bad = 0
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end
function request()
  n = n + 1
  return wrk.format("GET", paths[(n % #paths) + 1] .. "gclid=wrk-" .. id .. "-" .. n)
end
function response(status, headers, body)
  if status < 200 or status > 299 then bad = bad + 1 end
end
function done(summary, latency, requests)
  local b = 0
  for _, t in ipairs(threads) do b = b + t:get("bad") end
  local e = summary.errors
  io.write(string.format("FW requests=%d non2xx=%d socket=%d\\n", summary.requests, b, e.connect + e.read + e.write + e.timeout))
end
`,
  )
  const child: ChildProcess = spawn(
    WRK_PATH,
    [
      '-t2',
      '-c8',
      '-d120s',
      '--timeout',
      '10s',
      '-H',
      'Host: m10.localhost',
      '-s',
      script,
      `http://127.0.0.1:${port}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const output = captureOutput(child)
  return {
    async stop() {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGINT')
      await exited
      const m = /FW requests=(\d+) non2xx=(\d+) socket=(\d+)/.exec(output())
      if (!m) throw new Error(`wrk printed no summary:\n${output()}`)
      return { requests: Number(m[1]), non2xx: Number(m[2]), socket: Number(m[3]), output: output() }
    },
  }
}

/**
 * A release folder as the README makes one (a checkout of the new version, `npm ci`, `npm run build`):
 * this checkout's files, its node_modules linked rather than installed, and one stylesheet changed so
 * the new build's file names differ from the running one's.
 */
function makeRelease(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fw-release-'))
  const skip = new Set(['node_modules', '.git', '.data', 'test-results', '.scratch'])
  for (const name of readdirSync(PROJECT_ROOT))
    if (!skip.has(name) && name !== 'dist' && !name.startsWith('dist-') && !name.startsWith('.dist-'))
      cpSync(join(PROJECT_ROOT, name), join(dir, name), {
        recursive: true,
        // Installed or built folders of projects inside (the bench's Nuxt baseline) are no source.
        filter: (from) => !/[\\/](node_modules|\.nuxt|\.output)$/.test(from),
      })
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'))
  appendFileSync(join(dir, 'ui', 'templates', 'templates.css'), '\n.fw-release-two { outline: none; }\n')
  const r = spawnSync(process.execPath, [join(dir, 'tools', 'build.mjs')], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (r.status !== 0) throw new Error(`the new release's build failed:\n${r.stdout}\n${r.stderr}`)
  return dir
}

describe("the README's deployment: uploads and an upgrade through nginx", () => {
  it("nginx's body limit for image uploads is the server's: a 5 MB image is stored (201), more is refused (413)", {
    timeout: 120_000,
  }, async () => {
    const uploads =
      /location ~ \^\/api\/cc\/branches\/[^\n]*\/images[^\n]*\{\s*client_max_body_size (\d+)m;/.exec(
        inlinedNginxConf(),
      )
    expect(uploads, 'docs/nginx: the upload location sets client_max_body_size').not.toBeNull()
    expect(Number(uploads![1]) * MB).toBe(IMAGE_UPLOAD_MAX_BYTES)

    const png = await sharp(randomBytes(IMAGE_SIDE_PX * IMAGE_SIDE_PX * 3), {
      raw: { width: IMAGE_SIDE_PX, height: IMAGE_SIDE_PX, channels: 3 },
    })
      .png({ compressionLevel: 1 })
      .toBuffer()
    expect(png.length).toBeGreaterThan(5 * MB)
    const signedIn = await cc(nginx.port, 'POST', '/api/_auth/session', fleet.staff)
    expect(signedIn.status).toBe(200)
    const cookie = signedIn.cookie
    const created = await cc(nginx.port, 'POST', '/api/cc/branches', { title: 'Large photo' }, cookie)
    expect(created.status).toBe(201)
    const branch = (created.json.branch as { name: string }).name
    const stored = await upload(nginx.port, `/api/cc/branches/${branch}/images`, png, cookie)
    expect(stored.status, stored.body).toBe(201)
    expect(JSON.parse(stored.body).image.src).toMatch(/^\/images\/uploads\/large-photo\.[0-9a-f]{8}\.webp$/)

    const tooLarge = await upload(
      nginx.port,
      `/api/cc/branches/${branch}/images`,
      Buffer.alloc(IMAGE_UPLOAD_MAX_BYTES + 1),
      cookie,
    ).catch((e: NodeJS.ErrnoException) => ({ status: e.code ?? String(e), body: '' }))
    expect(tooLarge.status).toBe(413)
  })

  it.skipIf(!existsSync(WRK_PATH))(
    'an upgrade of one instance under wrk: every page and asset answer is 2xx',
    { timeout: 300_000 },
    async () => {
      const [a, b] = fleet.ports
      const pages = ['/', '/grocery']
      const oldAssets = assetsOf((await httpGet(a, '/', 'm10.localhost')).body)
      expect(oldAssets.length).toBeGreaterThan(0)
      // Built beside the running release, as the README's upgrade does: nothing running changes.
      release2 = makeRelease()
      const before = new Set(filesUnder(join(PROJECT_ROOT, 'dist', 'client', 'assets')))
      const newAssets = filesUnder(join(release2, 'dist', 'client', 'assets'))
        .filter((f) => !before.has(f) && /\.(css|js)$/.test(f))
        .map((f) => `/assets/${f}`)
      expect(newAssets.length).toBeGreaterThan(0)
      const commit = await servedCommit(b)
      const wrkDir = mkdtempSync(join(tmpdir(), 'fw-wrk-'))
      const loadFrom = Date.now() / 1000
      try {
        const steady = startWrk(nginx.port, [...pages, ...oldAssets], wrkDir)
        await new Promise((r) => setTimeout(r, 1_000))
        // The README's upgrade of one instance: current → the new release, restart, wait for /healthz.
        fleet.switchRelease(release2)
        await fleet.stopInstance(0)
        await fleet.start(0)
        const back = Date.now() / 1000
        expect(await servedCommit(a)).toBe(commit)
        // nginx takes it back once fail_timeout has passed: only then are its pages, naming the new
        // release's files, served to anyone.
        const { failTimeoutS } = readmeUpstreamParameters()
        await expect
          .poll(() => nginx.requests().some((r) => r.at >= back && r.upstreams.at(-1) === `127.0.0.1:${a}`), {
            timeout: (failTimeoutS + 10) * 1000,
            interval: 100,
          })
          .toBe(true)
        const upgraded = assetsOf((await httpGet(a, '/', 'm10.localhost')).body)
        expect(upgraded.some((f) => newAssets.includes(f))).toBe(true)
        // Both releases serve: pages from either, and the files each one's pages name.
        const mixed = startWrk(nginx.port, [...pages, ...newAssets, ...oldAssets], wrkDir)
        await new Promise((r) => setTimeout(r, MIXED_LOAD_S * 1_000))
        const [s, m] = [await steady.stop(), await mixed.stop()]
        const logged = nginx.requests().filter((r) => r.at >= loadFrom)
        // 499: wrk itself went away mid-request when it was stopped (nginx's "client closed request").
        const failed = logged.filter((r) => (r.status < 200 || r.status > 299) && r.status !== 499)
        // A file only the other release has: 404 from the first instance asked, 200 from the next.
        const askedAgain = logged.filter((r) => r.upstreamStatuses[0] === '404' && r.status === 200)
        console.log(
          `upgrade under wrk: ${s.requests} requests during the restart, ${m.requests} with both releases serving (${askedAgain.length} files asked of the other release); ${failed.length} not 2xx`,
        )
        expect(askedAgain.length).toBeGreaterThan(0)
        expect(failed.slice(0, 10)).toEqual([])
        expect([s.non2xx, s.socket, m.non2xx, m.socket]).toEqual([0, 0, 0, 0])
        expect(s.requests).toBeGreaterThan(0)
        expect(m.requests).toBeGreaterThan(0)
        // The other instance still runs the release it started from.
        expect((await httpGet(b, newAssets[0]!, 'm10.localhost')).status).toBe(404)
        expect(nginx.errors()).not.toMatch(/\[(emerg|alert|crit)\]/)
      } finally {
        rmSync(wrkDir, { recursive: true, force: true })
      }
    },
  )
})
