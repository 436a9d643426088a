/**
 * The seed product's stack for the http bench (issue 19, docs/decisions/0530): the Nuxt 4 app in
 * tools/bench/nuxt-baseline/, installed (`npm ci`) when its node_modules is missing or older than its
 * lock, built (`nuxi build`) when its `.output` is missing or older than its sources, and started the
 * way a Nuxt app runs in production (`node .output/server/index.mjs`, NODE_ENV=production). Not a
 * dependency of funnelworks: nothing of it is installed until a bench asks.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { freePort } from '../../tests/e2e/nginx'
import { captureOutput, PROJECT_ROOT, waitForOutput } from '../../tests/e2e/server-process'

export const NUXT_DIR = join(PROJECT_ROOT, 'tools', 'bench', 'nuxt-baseline')
/** What the build reads: a change to any of these rebuilds. */
const SOURCES = ['app', 'public', 'nuxt.config.ts', 'package.json', 'package-lock.json']
const INSTALL_TIMEOUT_MS = 10 * 60_000
const BUILD_TIMEOUT_MS = 5 * 60_000

export interface NuxtServer {
  port: number
  child: ChildProcess
  /** How it got ready: versions, install and build times (or "as installed/built before"), sizes. */
  setup: string
  stop(): Promise<void>
}

/** The newest modification time under a path (a file, or a folder walked whole). */
function newest(path: string): number {
  if (!existsSync(path)) return 0
  const st = statSync(path)
  if (!st.isDirectory()) return st.mtimeMs
  return Math.max(st.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))))
}

function folderMb(dir: string): number {
  const r = spawnSync('du', ['-sk', dir], { encoding: 'utf8' })
  return Number(r.stdout.split(/\s/)[0]) / 1024
}

/** Runs a step to completion, timed; throws with the tail of its output when it fails. */
function step(what: string, args: string[], timeout: number): number {
  const started = performance.now()
  const r = spawnSync(args[0], args.slice(1), {
    cwd: NUXT_DIR,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, NODE_ENV: 'production', NUXT_TELEMETRY_DISABLED: '1' },
  })
  if (r.status !== 0) {
    const lines = `${r.stdout ?? ''}\n${r.stderr ?? ''}`.trim().split('\n')
    // The first line that names the error (npm: "npm error code ECONNREFUSED"), then the output's tail.
    const cause = lines.find((l) => /\b(code|ERR_|Error:)/.test(l)) ?? lines.at(-1) ?? ''
    throw new Error(
      `${what} failed (${r.error?.message ?? `exit ${r.status}`}: ${cause.trim()})\n${lines.slice(-8).join('\n')}`,
    )
  }
  return (performance.now() - started) / 1000
}

/** Installs and builds the baseline when needed, then starts it. Throws (with the reason) when it cannot. */
export async function startNuxtBaseline(): Promise<NuxtServer> {
  const notes: string[] = []
  const modules = join(NUXT_DIR, 'node_modules')
  // npm writes node_modules/.package-lock.json on every install: older than the lock means stale.
  if (newest(join(modules, '.package-lock.json')) < newest(join(NUXT_DIR, 'package-lock.json'))) {
    console.log('installing the Nuxt baseline (npm ci, once)…')
    const s = step('npm ci', ['npm', 'ci', '--no-audit', '--no-fund', '--loglevel=error'], INSTALL_TIMEOUT_MS)
    notes.push(`installed in ${s.toFixed(0)} s (npm ci)`)
  }
  const entry = join(NUXT_DIR, '.output', 'server', 'index.mjs')
  if (newest(entry) < Math.max(...SOURCES.map((f) => newest(join(NUXT_DIR, f))))) {
    console.log('building the Nuxt baseline (nuxi build)…')
    const s = step('nuxi build', [process.execPath, join(modules, '.bin', 'nuxi'), 'build'], BUILD_TIMEOUT_MS)
    notes.push(`built in ${s.toFixed(0)} s (nuxi build)`)
  }
  const version = (pkg: string) =>
    (JSON.parse(readFileSync(join(modules, pkg, 'package.json'), 'utf8')) as { version: string }).version
  const setup = [
    `nuxt ${version('nuxt')}, vue ${version('vue')}`,
    notes.length ? notes.join(', ') : 'installed and built before',
    `node_modules ${Math.round(folderMb(modules))} MB, .output ${folderMb(join(NUXT_DIR, '.output')).toFixed(1)} MB`,
  ].join('; ')

  const port = await freePort()
  const child = spawn(process.execPath, [entry], {
    cwd: NUXT_DIR,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const output = captureOutput(child)
  await waitForOutput(child, output, 'Nuxt', 60_000, (out) => (out.includes(`:${port}`) ? true : null))
  return {
    port,
    child,
    setup,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
