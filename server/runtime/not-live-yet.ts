/**
 * "Not live yet" (docs/decisions/0618): whether the working tree's definitions/ (and public images)
 * differ from what a git-content server publishes, for `npm run validate` and `npm run dev` to say so
 * and what to run. Read-only: the blob hashes are computed here, nothing is written to the repository.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ServerConfig } from '../config'
import { PUBLISHED_REF } from '../content/git/branch-name'
import { CONTENT_DEFINITIONS, CONTENT_IMAGES, workingTreeFiles } from '../content/git/import-content'
import { runningServers, type ServerRunInfo } from './running-servers'

/** Git's name of a blob with these bytes. */
const blobSha = (data: Buffer) =>
  createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex')

function git(gitDir: string, args: string[]): string | null {
  const r = spawnSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 })
  return r.status === 0 ? r.stdout : null
}

/** The repository paths where the working tree and the published commit of `gitDir` differ. */
export function driftFromPublished(
  gitDir: string,
  src: Pick<ServerConfig, 'projectRoot' | 'definitionsDir'>,
): { published: string; changed: string[] } | null {
  const published = git(gitDir, ['rev-parse', '--verify', '-q', `${PUBLISHED_REF}^{commit}`])?.trim()
  if (!published) return null
  const tree = git(gitDir, [
    'ls-tree',
    '-r',
    '-z',
    '--full-tree',
    published,
    '--',
    CONTENT_DEFINITIONS,
    CONTENT_IMAGES,
  ])
  if (tree === null) return null
  const live = new Map<string, string>()
  for (const entry of tree.split('\0').filter(Boolean)) {
    const tab = entry.indexOf('\t')
    live.set(entry.slice(tab + 1), entry.slice(0, tab).split(' ')[2])
  }
  const changed: string[] = []
  for (const f of workingTreeFiles(src)) {
    if (live.get(f.path) !== blobSha(readFileSync(f.full))) changed.push(f.path)
    live.delete(f.path)
  }
  changed.push(...live.keys())
  return { published, changed: changed.sort() }
}

/**
 * The repository whose published commit is live for this checkout: the git-content server running from
 * it (when one runs and DATA_DIR / CONTENT_GIT_DIR name no other), else the configured repository when
 * it exists (what `npm start` with this configuration serves).
 */
function liveRepository(
  config: Pick<ServerConfig, 'projectRoot' | 'contentGitDir'>,
  env: NodeJS.ProcessEnv,
): { gitDir: string; server: ServerRunInfo | null } | null {
  const servers = runningServers(config.projectRoot).filter(
    (s) => s.contentSource === 'git' && s.contentGitDir,
  )
  const explicit = !!(env.DATA_DIR?.trim() || env.CONTENT_GIT_DIR?.trim())
  const server = explicit
    ? servers.find((s) => s.contentGitDir === config.contentGitDir)
    : servers.length === 1
      ? servers[0]
      : undefined
  if (server) return { gitDir: server.contentGitDir!, server }
  return existsSync(join(config.contentGitDir, 'HEAD'))
    ? { gitDir: config.contentGitDir, server: null }
    : null
}

/** One or two lines saying the working tree is not live yet and what to run; none when it is live. */
export function notLiveYet(
  config: Pick<ServerConfig, 'projectRoot' | 'definitionsDir' | 'contentGitDir'>,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const repo = liveRepository(config, env)
  const drift = repo && driftFromPublished(repo.gitDir, config)
  if (!repo || !drift?.changed.length) return []
  const n = drift.changed.length
  const shown = drift.changed.slice(0, 3).join(', ') + (n > 3 ? ', …' : '')
  const where = repo.server ? `the server on port ${repo.server.port} publishes` : `${repo.gitDir} publishes`
  return [
    `not live yet: ${n} file${n === 1 ? '' : 's'} differ${n === 1 ? 's' : ''} from what ${where} (${drift.published.slice(0, 12)}): ${shown}`,
    '  to publish: npm run content -- import, then open the control-center link it prints, sign in and publish (README: From a new page to live)',
  ]
}
