/**
 * npm run content -- import   commits the working tree's definitions/ (and public images) to the
 *                             content repository as a new branch cc/import-<timestamp>, to review
 *                             and publish in the control center
 * npm run content -- check <ref-or-commit> [--against REF] [--git-dir DIR]
 *                             validation and the blocking publish gates of a commit, validate's
 *                             lines, exit 1 when it may not go live (server/cli/content-check.ts)
 * npm run content -- export [--branch NAME]
 *                             writes the published tree (or a branch's) into definitions/ for a
 *                             developer to commit to the code repository
 *
 * Bridges the code repository and the content repository (CONTROL-CENTER §2.1, docs/decisions/0600).
 * Uses CONTENT_GIT_DIR / CONTENT_REMOTE like the server.
 */
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from '../config'
import { ContentRepository } from '../content/content-repository'
import { branchRef, LIVE_BRANCH } from '../content/git/branch-name'
import { checkGit } from '../content/git/git-process'
import { commitWorkingTree, exportToWorkingTree, type WorkingTreeSource } from '../content/git/import-content'
import { checkCommand } from './content-check'

const USAGE = `usage: npm run content -- import
       npm run content -- check <ref-or-commit> [--against REF] [--git-dir DIR]
       npm run content -- export [--branch NAME]   (default: live, the published content)`

/** `import`: a branch whose tree is the working tree, on top of published (so its diff is the change). */
export async function importBranch(
  content: ContentRepository,
  src: WorkingTreeSource,
  now = new Date(),
): Promise<{ branch: string | null; commit: string; changed: number }> {
  return content.exclusive(async () => {
    await content.sync()
    const published = await content.head(LIVE_BRANCH)
    const branch = `import-${now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-').toLowerCase()}`
    const commit = await commitWorkingTree(
      content.repo,
      src,
      published,
      `Import definitions from the code repository`,
    )
    const changed = published ? (await content.repo.changedPaths(published, commit)).length : -1
    if (changed === 0) return { branch: null, commit: published!, changed }
    await content.moveRef(branchRef(branch), commit, null)
    return { branch, commit, changed }
  })
}

async function main(): Promise<void> {
  // Its own options and exit code (docs/decisions/0610).
  if (process.argv[2] === 'check') {
    process.exitCode = await checkCommand(process.argv.slice(3))
    return
  }
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { branch: { type: 'string', default: LIVE_BRANCH }, help: { type: 'boolean', short: 'h' } },
  })
  const [command] = positionals
  if (values.help || (command !== 'import' && command !== 'export')) {
    console.log(USAGE)
    process.exit(values.help ? 0 : 1)
  }
  checkGit()
  const config = loadConfig()
  const content = await ContentRepository.open(config.contentGitDir, config.contentRemote)
  try {
    if (command === 'import') {
      const published = await content.ensurePublished(config)
      const r = await importBranch(content, config)
      if (!r.branch) {
        console.log(`nothing to import: the working tree equals live (${published.slice(0, 12)})`)
        return
      }
      console.log(
        `branch ${r.branch} at ${r.commit.slice(0, 12)}: ${r.changed} file${r.changed === 1 ? '' : 's'} differ from live (${published.slice(0, 12)}); review and publish it in the control center`,
      )
    } else {
      await content.exclusive(() => content.sync())
      const commit = await content.head(values.branch!)
      if (!commit) throw new Error(`unknown branch "${values.branch}"`)
      const r = await exportToWorkingTree(content.repo, commit, config)
      console.log(
        `wrote ${r.written} files from ${values.branch} (${commit.slice(0, 12)}), removed ${r.removed}; review with git diff and commit`,
      )
    }
  } finally {
    content.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await main()
  } catch (e) {
    console.error(
      e instanceof ConfigError
        ? `Configuration error: ${(e as Error).message}`
        : `content: ${(e as Error).message}`,
    )
    process.exit(1)
  }
}
