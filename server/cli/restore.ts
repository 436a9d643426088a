/**
 * npm run restore -- DIR
 *
 * Restores a backup written by `npm run backup` into an empty (or new) DATA_DIR (docs/decisions/0310):
 * the PGlite store, the content repository (CONTENT_GIT_DIR) and the preview key. Refuses a backup
 * with a file missing or damaged (naming it), one from a newer schema or format, and a DATA_DIR that
 * is not empty. Start the server afterwards (`npm start`): it serves the backed-up live commit.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { restoreBackup } from '../backup/restore'
import { ConfigError, loadConfig } from '../config'

const USAGE = 'usage: npm run restore -- DIR   (into an empty DATA_DIR)'

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h', default: false } },
  })
  if (values.help || positionals.length !== 1) {
    console.log(USAGE)
    process.exit(values.help ? 0 : 1)
  }
  const config = loadConfig()
  const { lines } = await restoreBackup({
    dir: resolve(positionals[0]),
    dataDir: config.dataDir,
    contentGitDir: config.contentGitDir,
    databaseUrl: config.databaseUrl,
  })
  console.log(`restored ${resolve(positionals[0])}`)
  for (const line of lines) console.log(`  ${line}`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await main()
  } catch (e) {
    const message = (e as Error).message
    console.error(e instanceof ConfigError ? `Configuration error: ${message}` : `restore: ${message}`)
    process.exit(1)
  }
}
