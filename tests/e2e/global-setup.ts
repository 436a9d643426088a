import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { PROJECT_ROOT, type ServerProcess, startServerProcess } from './server-process'

declare module 'vitest' {
  export interface ProvidedContext {
    port: number
  }
}

let server: ServerProcess | undefined

/** Builds the production bundle and starts one production server for the e2e suite. */
export async function setup(project: TestProject) {
  const build = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules', 'vike', 'bin.js'), 'build'], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    // vitest sets NODE_ENV=test, which would make Vite emit development JSX.
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (build.status !== 0) throw new Error(`vike build failed:\n${build.stdout}\n${build.stderr}`)
  server = await startServerProcess()
  project.provide('port', server.port)
}

export async function teardown() {
  await server?.stop()
}
