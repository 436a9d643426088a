/**
 * Starts the production server as a child process on an ephemeral port and tells its port.
 * Used by the e2e global setup and by tests that need their own server (restart, kill -9, …).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const PROJECT_ROOT = join(import.meta.dirname, '..', '..')
/** The server compiled to JavaScript by tools/build-server.mjs, as `npm start` runs it. */
export const SERVER_BUNDLE = join(PROJECT_ROOT, 'dist', 'app', 'server.mjs')

/**
 * Node's flags of `npm start` (package.json: `node <flags> tools/start.mjs`), so a test or bench
 * server runs with the same V8 settings as production (docs/decisions/0510).
 */
export const SERVER_NODE_FLAGS: string[] = (() => {
  const start = (
    JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      scripts: { start: string }
    }
  ).scripts.start
  const m = /^node((?:\s+--[\w-]+(?:=\S+)?)*)\s+tools\/start\.mjs$/.exec(start)
  if (!m) throw new Error(`package.json's start script is not "node [--flags] tools/start.mjs": ${start}`)
  return m[1].split(/\s+/).filter(Boolean)
})()

/** `node tools/build.mjs [args]`: a new build folder, then `dist` switched to it (docs/decisions/0332). */
function runBuild(args: string[]): void {
  const r = spawnSync(process.execPath, [join(PROJECT_ROOT, 'tools', 'build.mjs'), ...args], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    // vitest sets NODE_ENV=test, which would make Vite emit development JSX.
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`)
}

/** Compiles the server again over the current build's pages (`npm start` after a server change). */
export function buildServerBundle(): void {
  runBuild(['--server-only'])
}

/** Builds what `npm start` serves, as `npm run build` does: the pages and the compiled server. */
export function buildProductionBundle(): void {
  runBuild([])
}

/**
 * The e2e run's initialised data folder (the e2e setup file sets it from the global setup): a fresh
 * PGlite folder costs its first server ~7 s of initdb and migrations, more on a busy machine, so test
 * servers start on a copy of one prepared once — the state a fresh folder reaches, minus the wait.
 */
export const DATA_TEMPLATE_ENV = 'FW_E2E_DATA_TEMPLATE'

/** A new data folder `prefix…` in the temporary folder: a copy of the run's template when there is one. */
export function newDataDir(prefix = 'fw-data-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const template = process.env[DATA_TEMPLATE_ENV]
  if (template) {
    cpSync(template, dir, { recursive: true })
    // The claim of the server that prepared it (pid, port, socket, folder) is no copy's.
    rmSync(join(dir, 'server.json'), { force: true })
  }
  return dir
}

export interface ServerProcess {
  port: number
  child: ChildProcess
  output: () => string
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

export async function startServerProcess(
  env: Record<string, string> = {},
  /** Another release's compiled server and folder (the fleet's `current`): by default this checkout's. */
  release: { bundle: string; cwd: string } = { bundle: SERVER_BUNDLE, cwd: PROJECT_ROOT },
): Promise<ServerProcess> {
  // Each test server gets its own data folder unless told otherwise, so tests never write into the
  // project's .data (nor collide with a developer's running server holding it). On PostgreSQL too:
  // the data folder also holds the content repository and the preview key.
  // (On PostgreSQL an empty one: the template's PGlite store and publications are not that database's.)
  if (!env.DATA_DIR)
    env = { ...env, DATA_DIR: env.DATABASE_URL ? mkdtempSync(join(tmpdir(), 'fw-data-')) : newDataDir() }
  // Production runs the compiled server (as `npm start` does); development the sources through tsx
  // (as `npm run dev` does).
  const command =
    env.NODE_ENV === 'development'
      ? ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'index.ts')]
      : [...SERVER_NODE_FLAGS, release.bundle]
  const child = spawn(process.execPath, command, {
    cwd: release.cwd,
    // Every browser of an e2e test is a new visitor from 127.0.0.1: far more than a person's address
    // makes, so the throttle of new visitors (decision 0810; tested in answer-lifecycle.test.ts) is lifted.
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      NEW_VISITOR_LIMIT: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  const output = captureOutput(child)
  const port = await waitForOutput(child, output, 'server', 120_000, (out) => {
    const m = /on http:\/\/[^:]+:(\d+)\//.exec(out)
    return m ? Number(m[1]) : null
  })
  return {
    port,
    child,
    output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode)
        child.once('exit', (code) => resolve(code))
        try {
          process.kill(-child.pid!, signal)
        } catch {
          resolve(null)
        }
      }),
  }
}

/** Everything a child process writes to stdout and stderr, so far. */
export function captureOutput(child: ChildProcess): () => string {
  let out = ''
  child.stdout?.on('data', (d) => {
    out += d
  })
  child.stderr?.on('data', (d) => {
    out += d
  })
  return () => out
}

/**
 * Waits until `found` finds what it looks for in a child's output so far (checked on each stdout
 * chunk); rejects with the output when the child exits first or `timeoutMs` passes.
 */
export function waitForOutput<T>(
  child: ChildProcess,
  output: () => string,
  name: string,
  timeoutMs: number,
  found: (output: string) => T | null,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start in ${timeoutMs / 1000} s:\n${output()}`)),
      timeoutMs,
    )
    child.stdout!.on('data', () => {
      const value = found(output())
      if (value !== null) {
        clearTimeout(timer)
        resolve(value)
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${name} exited with ${code}:\n${output()}`))
    })
  })
}
