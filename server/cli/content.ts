/**
 * npm run content -- import [--as EMAIL]
 *                             commits the working tree's definitions/ (and public images) to the
 *                             running server's content repository as a new branch cc/import-<timestamp>,
 *                             to review and publish in the control center (server/cli/content-import.ts)
 * npm run content -- check <ref-or-commit> [--against REF] [--git-dir DIR]
 *                             validation and the blocking publish gates of a commit, validate's
 *                             lines, exit 1 when it may not go live (server/cli/content-check.ts)
 * npm run content -- export [--branch NAME]
 *                             writes the published tree (or a branch's) into definitions/ for a
 *                             developer to commit to the code repository
 *
 * Bridges the code repository and the content repository (CONTROL-CENTER §2.1, docs/decisions/0600).
 * `export` uses CONTENT_GIT_DIR / CONTENT_REMOTE like the server; `import` finds the running server's.
 */
import { parseArgs } from 'node:util'
import { loadConfig } from '../config'
import { ContentRepository } from '../content/content-repository'
import { LIVE_BRANCH } from '../content/git/branch-name'
import { checkGit } from '../content/git/git-process'
import { exportToWorkingTree } from '../content/git/import-content'
import { runCli } from './cli-main'
import { checkCommand } from './content-check'
import { importCommand } from './content-import'

const USAGE = `usage: npm run content -- import [--as EMAIL]   (preview links signed for that staff user)
       npm run content -- check <ref-or-commit> [--against REF] [--git-dir DIR]
       npm run content -- export [--branch NAME]   (default: live, the published content)`

async function main(): Promise<void> {
  // Its own options and exit code (docs/decisions/0610).
  if (process.argv[2] === 'check') {
    process.exitCode = await checkCommand(process.argv.slice(3))
    return
  }
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      branch: { type: 'string', default: LIVE_BRANCH },
      as: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const [command] = positionals
  if (values.help || (command !== 'import' && command !== 'export')) {
    console.log(USAGE)
    process.exit(values.help ? 0 : 1)
  }
  checkGit()
  const config = loadConfig()
  if (command === 'import') {
    // The running server's repository, found without DATA_DIR (docs/decisions/0615).
    for (const line of await importCommand(config, process.env, values.as)) console.log(line)
    return
  }
  const content = await ContentRepository.open(config.contentGitDir, config.contentRemote)
  try {
    await content.exclusive(() => content.sync())
    const commit = await content.head(values.branch!)
    if (!commit) throw new Error(`unknown branch "${values.branch}"`)
    const r = await exportToWorkingTree(content.repo, commit, config)
    console.log(
      `wrote ${r.written} files from ${values.branch} (${commit.slice(0, 12)}), removed ${r.removed}; review with git diff and commit`,
    )
  } finally {
    content.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runCli('content', main)
