/**
 * `npm run content -- import` (docs/decisions/0615, 0616): the working tree's definitions/ (and public
 * images) as a branch cc/import-<timestamp> of the running server's content repository — found through
 * its run file, never a second repository made beside it — with the branch's control-center link and
 * a signed preview link of each changed page.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { CONTROL_CENTER_BRAND_ID, PREVIEW_BRANCH_PARAM, PREVIEW_GRANT_PARAM } from '../../engine/constants'
import type { ServerConfig } from '../config'
import { ContentRepository } from '../content/content-repository'
import { branchRef, LIVE_BRANCH } from '../content/git/branch-name'
import { CONTENT_DEFINITIONS, commitWorkingTree, type WorkingTreeSource } from '../content/git/import-content'
import { type ImportPreview, mintImportPreview } from '../control-center/services/import-preview'
import { PreviewGrants } from '../control-center/services/preview-grants'
import { describeServer, pickServer, runningServers, type ServerRunInfo } from '../runtime/running-servers'
import { claimDataDir, readDataDirOwner } from '../store/data-dir-lock'
import { openStore } from '../store/open-store'
import { opsPost, reachable } from './ops-request'

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

export class ImportRefusedError extends Error {}

/** Where to import: the running server's repository, or (none running) an existing one. */
export interface ImportTarget {
  contentGitDir: string
  contentRemote: string | null
  dataDir: string
  server: ServerRunInfo | null
  /** Said before the result (e.g. that no server serves this repository). */
  notes: string[]
}

/**
 * The repository to import into. Nothing named (DATA_DIR, CONTENT_GIT_DIR unset): the only server
 * running from this checkout (the only git-content one, when a dev server runs beside it); named: the server on that repository. With no server, only a repository
 * that already exists: a server creates its own at its first start, and importing into a fresh one
 * would compare the working tree with itself.
 */
export function importTarget(
  config: Pick<ServerConfig, 'contentGitDir' | 'contentRemote' | 'dataDir'>,
  env: NodeJS.ProcessEnv,
  servers: ServerRunInfo[],
): ImportTarget {
  const withRepo = servers.filter((s) => s.contentGitDir)
  const explicit = !!(env.DATA_DIR?.trim() || env.CONTENT_GIT_DIR?.trim())
  // Beside a git-content server, a dev server (serving the working tree) is not the one meant.
  const serving = withRepo.filter((s) => s.contentSource === 'git')
  const server = pickServer(
    explicit || !serving.length ? withRepo : serving,
    explicit,
    (s) => s.contentGitDir === config.contentGitDir,
  )
  if (server)
    return {
      contentGitDir: server.contentGitDir!,
      contentRemote: server.contentRemote,
      dataDir: server.dataDir,
      server,
      notes: [],
    }
  const running = withRepo.map((s) => `the server running from this checkout (${describeServer(s)})`)
  if (!existsSync(join(config.contentGitDir, 'HEAD')))
    throw new ImportRefusedError(
      running.length
        ? `no content repository at ${config.contentGitDir}: ${running.join('; ')} keeps its own in DATA_DIR=${withRepo[0].dataDir}; run without DATA_DIR, or with DATA_DIR=${withRepo[0].dataDir}`
        : `no content repository at ${config.contentGitDir} (DATA_DIR=${config.dataDir}) and no server running from this checkout: start the server (npm start; it creates the repository), then import again, or set DATA_DIR to the running server's`,
    )
  return {
    contentGitDir: config.contentGitDir,
    contentRemote: config.contentRemote,
    dataDir: config.dataDir,
    server: null,
    notes: running.length
      ? [`note: no server serves ${config.contentGitDir}; ${running.join('; ')} uses another DATA_DIR`]
      : [`note: no server is running; start it with this DATA_DIR (${config.dataDir}) to review and publish`],
  }
}

/** Brand-host origin of a local server: `<id>.localhost:<port>` (*.localhost resolves to loopback). */
const localOrigin = (id: string, port: number) => `http://${id}.localhost:${port}`

/** The URL a page previews at: its route without parameters, on its first brand. */
function pagePreviewPath(route: string): string {
  return route.replace(/\/\{[^}]*\}.*$/, '') || '/'
}

/** The pages a commit adds or changes against `base`: their route and first brand. */
export async function changedPages(
  content: ContentRepository,
  base: string | null,
  commit: string,
): Promise<{ file: string; path: string; brand: string }[]> {
  const pagesDir = `${CONTENT_DEFINITIONS}/pages/`
  const changed = new Set(base ? await content.repo.changedPaths(base, commit) : [])
  const out: { file: string; path: string; brand: string }[] = []
  for (const e of await content.repo.lsTree(commit, [pagesDir.slice(0, -1)])) {
    if ((base && !changed.has(e.path)) || !e.path.endsWith('.json')) continue
    try {
      const page = JSON.parse((await content.repo.read(e.sha))?.toString('utf8') ?? '') as {
        path?: string
        brands?: string[]
      }
      const key = e.path.slice(pagesDir.length, -'.json'.length)
      const brand = page.brands?.[0]
      if (brand) out.push({ file: e.path, path: pagePreviewPath(page.path ?? `/${key}`), brand })
    } catch {
      // A page that does not parse has no preview; validation names it.
    }
  }
  return out
}

/** The preview grant: minted by the running server (PGlite), or here with the server's key and store. */
async function previewGrant(
  target: ImportTarget,
  config: Pick<ServerConfig, 'databaseUrl' | 'previewSecret'>,
  branch: string,
  as: string | undefined,
): Promise<ImportPreview> {
  const owner = target.server?.store === 'pglite' ? readDataDirOwner(target.dataDir) : null
  if (reachable(owner))
    return opsPost<ImportPreview>(owner, '/api/_ops/previews', { branch, ...(as ? { as } : {}) })
  if (target.server?.store === 'postgres' && !config.databaseUrl)
    throw new Error(
      'the running server keeps its staff in PostgreSQL: run with its DATABASE_URL for preview links',
    )
  const lock = config.databaseUrl ? null : claimDataDir(target.dataDir)
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? null : target.dataDir,
  })
  try {
    const grants = PreviewGrants.fromConfig(config.previewSecret, join(target.dataDir, 'preview.key'))
    return await mintImportPreview(store.db, grants, branch, as)
  } finally {
    await store.close()
    lock?.release()
  }
}

/** Runs the import and returns the lines to print. */
export async function importCommand(
  config: ServerConfig,
  env: NodeJS.ProcessEnv,
  as?: string,
): Promise<string[]> {
  const target = importTarget(config, env, runningServers(config.projectRoot))
  const lines = [...target.notes]
  const content = await ContentRepository.open(target.contentGitDir, target.contentRemote)
  try {
    const published = await content.exclusive(async () => {
      await content.sync()
      return content.head(LIVE_BRANCH)
    })
    if (!published)
      throw new ImportRefusedError(
        `${target.contentGitDir} has no published content yet: start the server once (npm start) to create it`,
      )
    const r = await importBranch(content, config)
    if (!r.branch) {
      lines.push(
        `nothing to import: the working tree equals live (${published.slice(0, 12)} in ${target.contentGitDir})`,
      )
      return lines
    }
    lines.push(
      `branch ${r.branch} at ${r.commit.slice(0, 12)}: ${r.changed} file${r.changed === 1 ? ' differs' : 's differ'} from live (${published.slice(0, 12)} in ${target.contentGitDir})`,
    )
    const port = target.server?.port ?? config.port
    lines.push(
      `control center: ${localOrigin(CONTROL_CENTER_BRAND_ID, port)}/branches/${r.branch}   (sign in, review, publish)`,
    )
    const pages = await changedPages(content, published, r.commit)
    if (!pages.length) return lines
    try {
      const grant = await previewGrant(target, config, r.branch, as)
      const until = new Date(grant.expiresAt).toISOString().slice(0, 16).replace('T', ' ')
      lines.push(`preview (signed for ${grant.email}, until ${until} UTC):`)
      const query = new URLSearchParams({
        [PREVIEW_BRANCH_PARAM]: r.branch,
        [PREVIEW_GRANT_PARAM]: grant.token,
      })
      for (const p of pages) lines.push(`  ${localOrigin(p.brand, port)}${p.path}?${query}`)
    } catch (e) {
      lines.push(`no preview links: ${(e as Error).message}`)
    }
    return lines
  } finally {
    content.close()
  }
}
