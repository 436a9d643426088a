/**
 * npm run restore -- DIR
 *
 * Restores a backup written by `npm run backup` into an empty (or new) DATA_DIR (docs/decisions/0310):
 * the PGlite store, the content repository (CONTENT_GIT_DIR) and the preview key. Refuses a backup
 * with a file missing or damaged (naming it), one from a newer schema or format, and a DATA_DIR that
 * is not empty. Start the server afterwards (`npm start`): it serves the backed-up live commit.
 */
import { restoreBackup } from '../backup/restore'
import { loadConfig } from '../config'
import { folderArgument, runCli } from './cli-main'

const USAGE = 'usage: npm run restore -- DIR   (into an empty DATA_DIR)'

async function main(): Promise<void> {
  const dir = folderArgument(USAGE)
  const config = loadConfig()
  const { lines } = await restoreBackup({
    dir,
    dataDir: config.dataDir,
    contentGitDir: config.contentGitDir,
    databaseUrl: config.databaseUrl,
  })
  console.log(`restored ${dir}`)
  for (const line of lines) console.log(`  ${line}`)
}

if (import.meta.url === `file://${process.argv[1]}`) await runCli('restore', main)
