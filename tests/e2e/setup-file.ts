/**
 * Runs before each e2e file: hands the global setup's prepared data folder to newDataDir
 * (server-process.ts) and its Chromium to launchBrowser (browser.ts).
 */
import { inject } from 'vitest'
import { BROWSER_WS_ENV } from './browser'
import { DATA_TEMPLATE_ENV } from './server-process'

process.env[DATA_TEMPLATE_ENV] = inject('dataTemplate')
process.env[BROWSER_WS_ENV] = inject('browserWs')
