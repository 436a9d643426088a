import { spawn } from 'node:child_process'
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { BrowserServer } from 'playwright-core'
import type { TestProject } from 'vitest/node'
import { launchBrowserServer } from './browser'
import {
  DATA_TEMPLATE_ENV,
  newDataDir,
  PROJECT_ROOT,
  type ServerProcess,
  startServerProcess,
} from './server-process'

declare module 'vitest' {
  export interface ProvidedContext {
    port: number
    /** The e2e server's PGlite folder (its server.json names the operator socket). */
    dataDir: string
    /** A PGlite data folder, initialised and migrated, that test servers start on copies of. */
    dataTemplate: string
    /** The run's Chromium, which test files connect to (launchBrowser, browser.ts). */
    browserWs: string
    /**
     * Written once the build, the data template and the e2e server are ready (E2eReady), or with the
     * error that stopped them: setup-file.ts waits for it before each e2e file.
     */
    e2eReady: string
  }
}

/** What e2eReady holds. */
export type E2eReady = { port: number; dataDir: string } | { error: string }

let server: ServerProcess | undefined
let dataDir: string | undefined
let template: string | undefined
let browser: BrowserServer | undefined
let readyDir: string | undefined
let preparing: Promise<void> | undefined

/** Runs a command to its end; rejects with its output when it fails. */
function run(args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
    })
    child.stderr.on('data', (d) => {
      out += d
    })
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.join(' ')} failed:\n${out}`)),
    )
  })
}

/** Opens the store in `dir` as the server does (PGlite's initdb, the migrations) and closes it. */
function initDataDir(dir: string): Promise<void> {
  const openStore = pathToFileURL(join(PROJECT_ROOT, 'server', 'store', 'open-store.ts')).href
  const script = `import(${JSON.stringify(openStore)}).then(async ({ openStore }) => {
    const store = await openStore({ databaseUrl: null, dataDir: ${JSON.stringify(dir)} })
    await store.close()
  })`
  return run(['--import', 'tsx', '-e', script], { LOG_LEVEL: 'warn' })
}

/**
 * Starts the Chromium every file connects to, then returns at once: the production bundle (the pages
 * and the compiled server), the data folder every test server starts on a copy of, and the one
 * production server of the e2e suite are prepared meanwhile, while the unit and model tests run
 * (vitest runs every global setup before any test, and the e2e files run last: vitest.config.ts).
 * Each e2e file waits for them in setup-file.ts.
 */
export async function setup(project: TestProject) {
  template = mkdtempSync(join(tmpdir(), 'fw-e2e-template-'))
  readyDir = mkdtempSync(join(tmpdir(), 'fw-e2e-ready-'))
  const readyFile = join(readyDir, 'ready.json')
  browser = await launchBrowserServer()
  project.provide('browserWs', browser.wsEndpoint())
  project.provide('dataTemplate', template)
  project.provide('e2eReady', readyFile)
  process.env[DATA_TEMPLATE_ENV] = template
  preparing = prepare(template).then(
    (ready) => announce(readyFile, ready),
    (e) => announce(readyFile, { error: (e as Error).stack ?? String(e) }),
  )
}

async function prepare(template: string): Promise<E2eReady> {
  await Promise.all([
    // As `npm run build`: a build folder of its own, then dist switched to it (docs/decisions/0332).
    // vitest sets NODE_ENV=test, which would make Vite emit development JSX.
    run([join(PROJECT_ROOT, 'tools', 'build.mjs')], { NODE_ENV: 'production' }),
    initDataDir(template),
  ])
  dataDir = newDataDir('fw-e2e-data-')
  server = await startServerProcess({ DATA_DIR: dataDir })
  return { port: server.port, dataDir }
}

/** Writes the ready file whole (a rename): a reader never sees half of it. */
function announce(file: string, ready: E2eReady): void {
  writeFileSync(`${file}.part`, JSON.stringify(ready))
  renameSync(`${file}.part`, file)
}

export async function teardown() {
  await preparing
  await server?.stop()
  await browser?.close()
  for (const dir of [dataDir, template, readyDir]) if (dir) rmSync(dir, { recursive: true, force: true })
}
