import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { buildServerBundle, PROJECT_ROOT, type ServerProcess, startServerProcess } from './server-process'

declare module 'vitest' {
  export interface ProvidedContext {
    port: number
    /** The e2e server's PGlite folder (its server.json tells the operator token). */
    dataDir: string
  }
}

let server: ServerProcess | undefined
let dataDir: string | undefined

/** Builds the production bundle and the compiled server, and starts one production server for the e2e suite. */
export async function setup(project: TestProject) {
  const build = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules', 'vike', 'bin.js'), 'build'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    // vitest sets NODE_ENV=test, which would make Vite emit development JSX.
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (build.status !== 0) throw new Error(`vike build failed:\n${build.stdout}\n${build.stderr}`)
  buildServerBundle()
  dataDir = mkdtempSync(join(tmpdir(), 'fw-e2e-data-'))
  server = await startServerProcess({ DATA_DIR: dataDir })
  project.provide('port', server.port)
  project.provide('dataDir', dataDir)
}

export async function teardown() {
  await server?.stop()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
}
