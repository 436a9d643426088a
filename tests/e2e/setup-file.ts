/**
 * Runs before each e2e file: waits until the global setup has the build, the data template and the
 * e2e server ready (they are prepared while the unit and model tests run: global-setup.ts), hands
 * their port and data folder to the file's inject('port') and inject('dataDir'), the prepared data
 * folder to newDataDir (server-process.ts) and the run's Chromium to launchBrowser (browser.ts).
 */
import { existsSync, readFileSync } from 'node:fs'
import { inject } from 'vitest'
import { BROWSER_WS_ENV } from './browser'
import type { E2eReady } from './global-setup'
import { DATA_TEMPLATE_ENV } from './server-process'

/** The build alone takes minutes on a loaded 2-core machine; this only bounds a hang. */
const READY_WITHIN_MS = 15 * 60_000

async function ready(file: string): Promise<{ port: number; dataDir: string }> {
  const started = Date.now()
  while (!existsSync(file)) {
    if (Date.now() - started > READY_WITHIN_MS)
      throw new Error(`the e2e global setup was not ready within ${READY_WITHIN_MS / 60_000} min (${file})`)
    await new Promise((r) => setTimeout(r, 200))
  }
  const answer = JSON.parse(readFileSync(file, 'utf8')) as E2eReady
  if ('error' in answer) throw new Error(`the e2e global setup failed:\n${answer.error}`)
  return answer
}

const readyFile = inject('e2eReady')
if (!readyFile) throw new Error('setup-file.ts: the e2e global setup provided no e2eReady file')
const { port, dataDir } = await ready(readyFile)
// What the global setup could not provide before the tests started, where inject() reads it (vitest's
// worker state: its provided context, a plain object per worker).
const provided = (globalThis as { __vitest_worker__?: { providedContext?: Record<string, unknown> } })
  .__vitest_worker__?.providedContext
if (!provided)
  throw new Error("setup-file.ts: vitest's worker state has no provided context to add the e2e server to")
Object.assign(provided, { port, dataDir })
if (inject('port') !== port) throw new Error('setup-file.ts: inject("port") does not read what was provided')
process.env[DATA_TEMPLATE_ENV] = inject('dataTemplate')
process.env[BROWSER_WS_ENV] = inject('browserWs')
