/**
 * The content check (docs/decisions/0610), as a command and as the content repository's hook:
 *
 * npm run content -- check <ref-or-commit> [--against REF] [--git-dir DIR]
 *     validates the commit's definitions and runs the blocking publish gates against `--against`
 *     (default: published, or the commit's parent when it is published); prints validate's
 *     `file:line:col  /pointer  message` lines and exits 1 on errors, 0 when it may go live.
 * node --import tsx server/cli/content-check.ts pre-receive
 *     git's pre-receive hook (written by the server into its bare repository at each start; install
 *     it the same way on a shared CONTENT_REMOTE): reads `<old> <new> <ref>` lines on stdin.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import { loadConfig } from '../config'
import {
  checkCommit,
  checkPush,
  formatRefusal,
  PUSH_LOG,
  parseRefUpdates,
  type RefUpdate,
  snapshotOrNull,
} from '../content/content-check'
import { ContentRepository } from '../content/content-repository'
import { PUBLISHED_REF } from '../content/git/branch-name'
import { ContentRepo } from '../content/git/content-repo'
import { GitSnapshotSource } from '../content/git-snapshot-source'
import { publicAssetExists } from '../content/read-definitions'

const PROJECT_ROOT = resolve(import.meta.dirname, '..', '..')

export const CHECK_USAGE = 'usage: npm run content -- check <ref-or-commit> [--against REF] [--git-dir DIR]'

/** `check`: prints the errors and returns the exit code (1: refused, 0: may go live). */
export async function checkCommand(args: readonly string[], out = console.log): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: { against: { type: 'string' }, 'git-dir': { type: 'string' } },
  })
  const [name] = positionals
  if (!name) {
    out(CHECK_USAGE)
    return 2
  }
  const config = loadConfig()
  const gitDir = values['git-dir'] ? resolve(values['git-dir']) : config.contentGitDir
  if (!existsSync(join(gitDir, 'HEAD'))) {
    out(`content check: no git repository at ${gitDir} (set CONTENT_GIT_DIR or pass --git-dir)`)
    return 2
  }
  const content = await ContentRepository.open(gitDir, values['git-dir'] ? null : config.contentRemote)
  try {
    await content.exclusive(() => content.sync())
    const repo = content.repo
    const commit = await repo.resolve(name)
    if (!commit) {
      out(`content check: "${name}" names no commit in ${gitDir}`)
      return 2
    }
    const published = await repo.resolve(PUBLISHED_REF)
    const against = values.against
      ? await repo.resolve(values.against)
      : published && published !== commit
        ? published
        : await repo.resolve(`${commit}^`)
    const source = new GitSnapshotSource(repo, publicAssetExists(PROJECT_ROOT))
    const started = performance.now()
    const { errors } = await checkCommit(
      source,
      commit,
      await snapshotOrNull(source, against),
      config.gateBudgetMs,
    )
    const ms = Math.round(performance.now() - started)
    const what = `${name} (${commit.slice(0, 12)})${against ? ` against ${against.slice(0, 12)}` : ''}`
    if (!errors.length) {
      out(`ok: ${what} passes validation and the publish gates (${ms} ms)`)
      return 0
    }
    for (const e of errors) out(formatDefinitionError(e))
    out(`\n${errors.length} error${errors.length === 1 ? '' : 's'} in ${what} (${ms} ms): it may not go live`)
    return 1
  } finally {
    content.close()
  }
}

/** The hook: refuses the whole push when any ref update fails (git then moves no ref). */
async function preReceive(): Promise<number> {
  const gitDir = resolve(process.env.GIT_DIR ?? '.')
  const repo = await ContentRepo.open(gitDir)
  try {
    const source = new GitSnapshotSource(repo, publicAssetExists(PROJECT_ROOT))
    const updates = parseRefUpdates(readFileSync(0, 'utf8'))
    const refusals = await checkPush(source, updates)
    for (const r of refusals) console.error(formatRefusal(r))
    if (refusals.length) return 1
    // The server records a move of published it finds here as a push, not as a move by hand (0620).
    notePushes(gitDir, updates)
    return 0
  } finally {
    repo.close()
  }
}

/** One line per accepted update of published: `<old> <new> <ISO time>`. */
function notePushes(gitDir: string, updates: readonly RefUpdate[]): void {
  const at = new Date().toISOString()
  const lines = updates.filter((u) => u.ref === PUBLISHED_REF).map((u) => `${u.old} ${u.next} ${at}\n`)
  if (lines.length) appendFileSync(join(gitDir, PUSH_LOG), lines.join(''))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, ...rest] = process.argv.slice(2)
  try {
    if (command === 'pre-receive') process.exitCode = await preReceive()
    else if (command === 'check') process.exitCode = await checkCommand(rest)
    else {
      console.log(CHECK_USAGE)
      process.exitCode = 2
    }
  } catch (e) {
    console.error(`content check: ${(e as Error).message}`)
    process.exitCode = 2
  }
}
