import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
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
  }
}

let server: ServerProcess | undefined
let dataDir: string | undefined
let template: string | undefined
let browser: BrowserServer | undefined

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
 * Builds the production bundle (the pages and the compiled server) and, meanwhile, prepares the data
 * folder every test server starts on a copy of and starts the Chromium every file connects to; then
 * starts one production server for the e2e suite.
 */
export async function setup(project: TestProject) {
  template = mkdtempSync(join(tmpdir(), 'fw-e2e-template-'))
  ;[browser] = await Promise.all([
    launchBrowserServer(),
    // As `npm run build`: a build folder of its own, then dist switched to it (docs/decisions/0332).
    // vitest sets NODE_ENV=test, which would make Vite emit development JSX.
    run([join(PROJECT_ROOT, 'tools', 'build.mjs')], { NODE_ENV: 'production' }),
    initDataDir(template),
  ])
  project.provide('browserWs', browser.wsEndpoint())
  process.env[DATA_TEMPLATE_ENV] = template
  dataDir = newDataDir('fw-e2e-data-')
  server = await startServerProcess({ DATA_DIR: dataDir })
  project.provide('port', server.port)
  project.provide('dataDir', dataDir)
  project.provide('dataTemplate', template)
}

export async function teardown() {
  await server?.stop()
  await browser?.close()
  for (const dir of [dataDir, template]) if (dir) rmSync(dir, { recursive: true, force: true })
}
