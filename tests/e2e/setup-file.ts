/** Runs before each e2e file: hands the global setup's prepared data folder to newDataDir (server-process.ts). */
import { inject } from 'vitest'
import { DATA_TEMPLATE_ENV } from './server-process'

process.env[DATA_TEMPLATE_ENV] = inject('dataTemplate')
