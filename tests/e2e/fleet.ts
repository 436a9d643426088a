/**
 * The README's deployment (decision 0320) on loopback, for tests/e2e/fleet.e2e.ts and
 * `npm run bench -- fleet`: instances started as docs/deploy/funnelworks@.service starts them, with
 * docs/deploy/funnelworks.env, on one PostgreSQL and one bare git remote, behind nginx with
 * docs/nginx/funnelworks.conf. The operator's paths (/opt/funnelworks/current, /var/lib/funnelworks,
 * the CHANGE-ME values) are swapped for temporary ones; every other line is used as written, and a
 * unit whose command differs from what `npm start` runs is refused, so the files cannot drift.
 * `current` is a link to the release the instances start from (this checkout at first); an upgrade
 * points it at another release folder (docs/decisions/0332).
 */
import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { runGit } from '../../server/content/git/git-process'
import { httpGet } from './http'
import { freePort, type RunningNginx, readmeNginxConf, startNginx } from './nginx'
import {
  PROJECT_ROOT,
  SERVER_BUNDLE,
  SERVER_NODE_FLAGS,
  type ServerProcess,
  startServerProcess,
} from './server-process'
import { addStaff } from './staff-cli'

export const DEPLOY_DIR = join(PROJECT_ROOT, 'docs', 'deploy')
export const UNIT_FILE = join(DEPLOY_DIR, 'funnelworks@.service')
export const ENV_FILE = join(DEPLOY_DIR, 'funnelworks.env')
/** The shared remote's pre-receive hook, as the README installs it. */
export const HOOK_FILE = join(DEPLOY_DIR, 'pre-receive')
/** Where the unit says the current release, the instances' folders and the environment file live. */
const INSTALL_DIR = '/opt/funnelworks/current'
const STATE_DIR = '/var/lib/funnelworks'
const ENV_PATH = '/etc/funnelworks/funnelworks.env'
/** What the operator must replace in the environment file; the fleet puts its own values there. */
const PLACEHOLDER = 'CHANGE-ME'

/**
 * Issue 30: after a publish on one instance, every instance serves the new commit within 2 s —
 * counted from the publisher's answer (the commit is live on that instance), as the other instances
 * can only learn of it then.
 */
export const PUBLISH_CONVERGENCE_MS = 2_000

/** KEY=VALUE lines (systemd's EnvironmentFile: no quotes, # comments). */
function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line)
    if (!m) throw new Error(`${ENV_FILE}: "${line}" is not KEY=VALUE`)
    env[m[1]] = m[2]
  }
  return env
}

export interface DeployUnit {
  /** Environment= lines, %i not yet replaced. */
  environment: Record<string, string>
  environmentFile: string
  execStart: string[]
  workingDirectory: string
  /** How long systemd waits before restarting a failed instance (RestartSec=). */
  restartSec: number
}

/** The [Service] settings of the unit file that say how an instance runs. */
export function readUnit(): DeployUnit {
  const settings = new Map<string, string[]>()
  for (const line of readFileSync(UNIT_FILE, 'utf8').split('\n')) {
    const m = /^(\w+)=(.*)$/.exec(line)
    if (m) settings.set(m[1], [...(settings.get(m[1]) ?? []), m[2]])
  }
  const one = (key: string) => {
    const v = settings.get(key)
    if (v?.length !== 1) throw new Error(`${UNIT_FILE} should set ${key}= once`)
    return v[0]
  }
  return {
    environment: parseEnv((settings.get('Environment') ?? []).join('\n')),
    environmentFile: one('EnvironmentFile'),
    execStart: one('ExecStart').split(/\s+/),
    workingDirectory: one('WorkingDirectory'),
    restartSec: Number(one('RestartSec')),
  }
}

export interface FleetPlaces {
  databaseUrl: string
  contentRemote: string
  previewSecret: string
  /** Stands for /var/lib/funnelworks. */
  stateDir: string
  /** Stands for /opt/funnelworks/current: a link to the release folder instances start from. */
  current: string
}

/**
 * The environment the unit gives instance `port`: the environment file, then the unit's own
 * Environment= lines with %i, the operator's paths and CHANGE-ME values swapped for `places`.
 * Throws when the unit would run something else than the server `npm start` runs, with its flags.
 */
export function deployedEnv(port: number, places: FleetPlaces): Record<string, string> {
  const unit = readUnit()
  const expected = [
    '/usr/bin/node',
    ...SERVER_NODE_FLAGS,
    `${INSTALL_DIR}/${relative(PROJECT_ROOT, SERVER_BUNDLE)}`,
  ]
  if (unit.execStart.join(' ') !== expected.join(' '))
    throw new Error(
      `${UNIT_FILE}: ExecStart should be "${expected.join(' ')}" (npm start's node flags and server), not "${unit.execStart.join(' ')}"`,
    )
  if (unit.workingDirectory !== INSTALL_DIR)
    throw new Error(
      `${UNIT_FILE}: WorkingDirectory should be ${INSTALL_DIR} (README), not ${unit.workingDirectory}`,
    )
  if (unit.environmentFile !== ENV_PATH)
    throw new Error(`${UNIT_FILE}: EnvironmentFile should be ${ENV_PATH} (README)`)
  const file = parseEnv(readFileSync(ENV_FILE, 'utf8'))
  const ours: Record<string, string> = {
    DATABASE_URL: places.databaseUrl,
    CONTENT_REMOTE: places.contentRemote,
    PREVIEW_SECRET: places.previewSecret,
  }
  for (const [key, value] of Object.entries(file))
    if (value.includes(PLACEHOLDER) && !(key in ours))
      throw new Error(`${ENV_FILE}: ${key} holds ${PLACEHOLDER} and the fleet has no value for it`)
  for (const key of Object.keys(ours)) if (!(key in file)) throw new Error(`${ENV_FILE} should set ${key}`)
  const unitEnv = Object.fromEntries(
    Object.entries(unit.environment).map(([k, v]) => [
      k,
      v.replaceAll('%i', String(port)).replace(STATE_DIR, places.stateDir),
    ]),
  )
  return { ...file, ...ours, ...unitEnv }
}

/**
 * docs/deploy/pre-receive into the fleet's remote: its release path is `current`'s, its Node this
 * one; every other line as written.
 */
function installRemoteHook(places: FleetPlaces): void {
  let hook = readFileSync(HOOK_FILE, 'utf8')
  for (const [from, to] of [
    ['/usr/bin/node', process.execPath],
    [INSTALL_DIR, places.current],
  ] as const) {
    if (!hook.includes(from)) throw new Error(`${HOOK_FILE} should name ${from}`)
    hook = hook.replaceAll(from, to)
  }
  const file = join(places.contentRemote, 'hooks', 'pre-receive')
  writeFileSync(file, hook)
  chmodSync(file, 0o755)
}

/** The commit an instance says it serves (GET /healthz), or null when it does not answer. */
export async function servedCommit(port: number): Promise<string | null> {
  try {
    const r = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) })
    return ((await r.json()) as { commit: string | null }).commit
  } catch {
    return null
  }
}

/**
 * Polls every instance's /healthz until each serves `commit`; resolves the milliseconds from `since`
 * until the last one did, or rejects naming the instances that did not within `timeoutMs`.
 */
export async function converged(
  ports: readonly number[],
  commit: string,
  since: number,
  timeoutMs: number,
): Promise<number> {
  const pending = new Set(ports)
  let last = since
  while (pending.size) {
    // Every instance asked at once, so one slow answer does not delay noticing the others.
    await Promise.all(
      [...pending].map(async (port) => {
        if ((await servedCommit(port)) !== commit) return
        pending.delete(port)
        last = Math.max(last, performance.now())
      }),
    )
    if (!pending.size) break
    if (performance.now() - since > timeoutMs)
      throw new Error(
        `instances on ${[...pending].join(', ')} do not serve ${commit.slice(0, 8)} after ${timeoutMs} ms`,
      )
    await new Promise((r) => setTimeout(r, 20))
  }
  return last - since
}

export interface Fleet {
  ports: number[]
  /** The running instance on each port (null while killed). */
  instances: (ServerProcess | null)[]
  places: FleetPlaces
  /** The staff user who publishes (a publisher), and their password. */
  staff: { email: string; password: string }
  /** Starts (or restarts) the instance on ports[i] as the unit does, from the `current` release. */
  start(i: number): Promise<ServerProcess>
  /** SIGTERMs the instance on ports[i] (systemctl stop); resolves once it is gone. */
  stopInstance(i: number): Promise<void>
  /** Points `current` at the release folder `dir` in one rename (`ln -sfn …; mv -T …`). */
  switchRelease(dir: string): void
  /** SIGKILLs the instance on ports[i]; resolves once it is gone. */
  kill(i: number): Promise<void>
  /** nginx with the README's configuration in front of the instances on `ports`. */
  nginx(
    ports: readonly number[],
    opts?: { workers?: number | 'auto'; accessLog?: boolean },
  ): Promise<RunningNginx>
  stop(): Promise<void>
}

/**
 * `count` instances on `databaseUrl` and a new bare remote: the first starts alone (it creates the
 * content repository and pushes it), the others together; one publisher is added with the staff CLI.
 */
export async function startFleet(
  databaseUrl: string,
  count: number,
  /** Install docs/deploy/pre-receive into the shared remote, as the README's deployment does. */
  opts: { remoteHook?: boolean } = {},
): Promise<Fleet> {
  const dir = mkdtempSync(join(tmpdir(), 'fw-fleet-'))
  const places: FleetPlaces = {
    databaseUrl,
    contentRemote: join(dir, 'content-remote.git'),
    previewSecret: randomBytes(32).toString('hex'),
    stateDir: join(dir, 'state'),
    current: join(dir, 'current'),
  }
  const switchRelease = (release: string) => {
    const link = `${places.current}.new`
    symlinkSync(release, link)
    renameSync(link, places.current)
  }
  switchRelease(PROJECT_ROOT)
  await runGit(places.contentRemote, ['init', '--bare', '-q', places.contentRemote])
  if (opts.remoteHook) installRemoteHook(places)
  const ports: number[] = []
  for (let i = 0; i < count; i++) ports.push(await freePort())
  const instances: (ServerProcess | null)[] = ports.map(() => null)
  const nginxes: RunningNginx[] = []
  const start = async (i: number) => {
    const env = deployedEnv(ports[i], places)
    // systemd's StateDirectory= makes the instance's folder.
    mkdirSync(env.DATA_DIR, { recursive: true })
    instances[i] = await startServerProcess(env, {
      bundle: join(places.current, relative(PROJECT_ROOT, SERVER_BUNDLE)),
      cwd: places.current,
    })
    return instances[i]
  }
  const staff = { email: 'publisher@fleet.test', password: randomBytes(12).toString('hex') }
  const fleet: Fleet = {
    ports,
    instances,
    places,
    staff,
    start,
    switchRelease,
    async stopInstance(i) {
      const instance = instances[i]
      instances[i] = null
      await instance?.stop('SIGTERM')
    },
    async kill(i) {
      const instance = instances[i]
      instances[i] = null
      await instance?.stop('SIGKILL')
    },
    async nginx(upstreams, opts = {}) {
      const nginx = await startNginx(
        (p) => readmeNginxConf(p, upstreams),
        opts.workers ?? 1,
        opts.accessLog ?? false,
      )
      nginxes.push(nginx)
      return nginx
    },
    async stop() {
      await Promise.all(nginxes.map((n) => n.stop()))
      await Promise.all(instances.map((s) => s?.stop()))
      rmSync(dir, { recursive: true, force: true })
    },
  }
  try {
    await start(0)
    // The others boot (their processes are spawned at once) while the staff CLI adds the publisher.
    const others = Promise.all(ports.slice(1).map((_, i) => start(i + 1)))
    try {
      addStaff({ DATABASE_URL: databaseUrl }, staff.password, [[staff.email, 'Fleet Publisher', 'publisher']])
    } finally {
      await others
    }
  } catch (e) {
    await fleet.stop()
    throw e
  }
  return fleet
}

/**
 * `clients` loops asking the proxy on `port` for a brand's home page with a new click id each time
 * (as paid traffic arrives: every URL new to nginx's cache, so each reaches an instance); records
 * every answer that is not a 200.
 */
export function startPageLoad(port: number, clients = 4) {
  const failed: { status: number | string; path: string }[] = []
  let answered = 0
  let running = true
  let n = 0
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const path = `/?gclid=fleet-${process.pid}-${n++}`
      try {
        const r = await httpGet(port, path, 'm10.localhost')
        if (r.status === 200) answered++
        else failed.push({ status: r.status, path })
      } catch (e) {
        failed.push({ status: (e as NodeJS.ErrnoException).code ?? String(e), path })
      }
    }
  })
  return {
    failed,
    answered: () => answered,
    stop: async () => {
      running = false
      await Promise.all(loops)
    },
  }
}
