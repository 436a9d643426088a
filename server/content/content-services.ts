/**
 * Wires the content repository into the server (docs/decisions/0600): opens (or creates and
 * imports) the bare repository, gives the site its live snapshot when CONTENT_SOURCE=git, and,
 * once the data store is open, the branch, draft, publish and fleet services.
 */

import { join } from 'node:path'
import type { Snapshot } from '../../engine/snapshot/types'
import type { ServerConfig } from '../config'
import { BranchQueries } from '../control-center/services/branch-queries'
import { BranchService } from '../control-center/services/branch-service'
import { ContentRuns } from '../control-center/services/content-runs'
import { ImageLibrary } from '../control-center/services/image-library'
import { PreviewGrants } from '../control-center/services/preview-grants'
import { Publisher } from '../control-center/services/publisher'
import { log } from '../log'
import type { Metrics } from '../metrics/metrics'
import { isActiveStaffUser } from '../store/auth-store'
import type { Store } from '../store/open-store'
import { TextGenerator } from '../upstream/text-generation'
import { ContentFleet, type FleetOptions } from './content-fleet'
import { ContentRepository } from './content-repository'
import { checkGit } from './git/git-process'
import { installPreReceiveHook } from './git/pre-receive-hook'
import { BranchSnapshots, GitSnapshotSource } from './git-snapshot-source'
import { LiveContent } from './live-content'
import { publicAssetExists } from './read-definitions'
import { SnapshotStore } from './snapshot-store'

export interface ContentConfig
  extends Pick<ServerConfig, 'projectRoot' | 'definitionsDir' | 'dataDir' | 'databaseUrl'>,
    Partial<
      Pick<
        ServerConfig,
        | 'previewSecret'
        | 'textgenBaseUrl'
        | 'textgenApiKey'
        | 'textgenModel'
        | 'textgenTimeoutMs'
        | 'textgenMaxConcurrency'
        | 'gateBudgetMs'
      >
    > {
  contentSource: 'git' | 'worktree'
  contentGitDir: string
  contentRemote: string | null
}

export interface ContentServices {
  repository: ContentRepository
  source: GitSnapshotSource
  live: LiveContent
  branchSnapshots: BranchSnapshots
  branches: BranchService
  publisher: Publisher
  fleet: ContentFleet
  /** What the control center reads: branch list, files, diffs, history. */
  queries: BranchQueries
  /** Signs and checks preview links (docs/decisions/0601). */
  previews: PreviewGrants
  /** Content-factory runs (off without TEXTGEN_BASE_URL). */
  runs: ContentRuns
  /** Uploaded images: list with uses, upload, alt text, replace, delete (docs/decisions/0920). */
  images: ImageLibrary
  close(): Promise<void>
}

export interface OpenedContent {
  repository: ContentRepository
  source: GitSnapshotSource
  /** What the site serves: the published commit (git) or the working tree (worktree). */
  snapshots: SnapshotStore
  live: LiveContent
}

/**
 * Opens the content repository and the snapshot the site serves. With CONTENT_SOURCE=git a missing
 * git stops the server with GitMissingError; with worktree the site runs without the control
 * center's content services (returns `repository: null` then).
 */
export async function openContent(
  config: ContentConfig,
): Promise<OpenedContent | { repository: null; snapshots: SnapshotStore }> {
  if (config.contentSource === 'worktree') {
    const snapshots = SnapshotStore.load(config.definitionsDir, config.projectRoot)
    try {
      checkGit()
    } catch (e) {
      log('warn', `${(e as Error).message}; the control center's content services are off`)
      return { repository: null, snapshots }
    }
    const { repository, source, live } = await openRepository(config)
    // The site serves the working tree: a published history with nothing valid only leaves live unknown.
    await live.lastGood().catch((e) => log('warn', 'no published commit validates', { error: String(e) }))
    return { repository, source, snapshots, live }
  }
  checkGit()
  const { repository, source, live } = await openRepository(config)
  let snapshots: SnapshotStore
  let commit: string
  try {
    // A first start imports the working tree; its snapshot is built once, as the check and for serving.
    let imported: { commit: string; snapshot: Snapshot } | undefined
    await repository.ensurePublished(config, async (c) => {
      imported = { commit: c, snapshot: await live.build(c) }
    })
    // A commit on published that fails its checks never stops a start (docs/decisions/0610).
    const last = await live.lastGood(imported)
    commit = last.commit
    const snapshot = last.snapshot
    snapshots = SnapshotStore.of(snapshot, config.definitionsDir, config.projectRoot)
    // Already holds the served snapshot (lastGood set the commit; a refusal it found stays reported).
    live.serveInto(snapshots)
  } catch (e) {
    repository.close()
    throw e
  }
  log('info', 'serving published content', { commit, repository: config.contentGitDir })
  return { repository, source, snapshots, live }
}

async function openRepository(config: ContentConfig) {
  const repository = await ContentRepository.open(config.contentGitDir, config.contentRemote)
  const source = new GitSnapshotSource(repository.repo, publicAssetExists(config.projectRoot))
  const live = new LiveContent(repository, source, config.gateBudgetMs)
  try {
    installPreReceiveHook(config.contentGitDir, config.projectRoot)
  } catch (e) {
    // Live still refuses a bad commit on published (docs/decisions/0610); pushes are just not stopped early.
    log('warn', 'could not write the content repository’s pre-receive hook', { error: String(e) })
  }
  if (config.contentSource === 'worktree') await repository.ensurePublished(config, (c) => live.build(c))
  return { repository, source, live }
}

/** The services of the control center over an opened content repository and the data store. */
export function startContentServices(
  opened: OpenedContent,
  store: Store,
  config: ContentConfig,
  fleet: Partial<FleetOptions> = {},
  metrics?: Metrics,
): ContentServices {
  const branchSnapshots = new BranchSnapshots(opened.source)
  const branches = new BranchService(opened.repository, store.db, branchSnapshots)
  const publisher = new Publisher(opened.repository, store.db, opened.live, config.gateBudgetMs, (kind) =>
    metrics?.publications[kind].inc(),
  )
  const contentFleet = new ContentFleet({
    live: opened.live,
    publisher,
    db: store.db,
    databaseUrl: config.databaseUrl,
    ...fleet,
  })
  opened.live.trustPublications({
    ...publicationsOf(store.db),
    record: (move) => publisher.recordMove(move),
  })
  contentFleet.start()
  metrics?.watch({
    content: {
      source: config.contentSource,
      commit: () => opened.live.commit,
      degraded: () => opened.live.health().content === 'degraded',
      reconciledAt: () => contentFleet.reconciledAt,
    },
  })
  const generator = config.textgenBaseUrl
    ? new TextGenerator({
        baseUrl: config.textgenBaseUrl,
        apiKey: config.textgenApiKey ?? null,
        model: config.textgenModel ?? 'gpt-4o-mini',
        timeoutMs: config.textgenTimeoutMs ?? 120_000,
        maxConcurrency: config.textgenMaxConcurrency ?? 2,
      })
    : null
  const runs = new ContentRuns(store.db, opened.repository, branches, generator)
  runs.start()
  return {
    runs,
    images: new ImageLibrary(opened.repository, branches, opened.source, store.db),
    queries: new BranchQueries(opened.repository, store.db, branches),
    previews: PreviewGrants.fromConfig(
      config.previewSecret ?? null,
      join(config.dataDir, 'preview.key'),
      (id) => isActiveStaffUser(store.db, id),
    ),
    repository: opened.repository,
    source: opened.source,
    live: opened.live,
    branchSnapshots,
    branches,
    publisher,
    fleet: contentFleet,
    close: async () => {
      await runs.stop()
      await contentFleet.stop()
      opened.repository.close()
    },
  }
}

/** Whether a commit went live through the publisher, and the latest that did (docs/decisions/0610). */
function publicationsOf(db: Store['db']) {
  return {
    published: async (commit: string) =>
      (await db.query('SELECT 1 FROM content_publications WHERE new_commit = $1 LIMIT 1', [commit])).rows
        .length > 0,
    latest: async () =>
      (
        await db.query<{ new_commit: string }>(
          'SELECT new_commit FROM content_publications ORDER BY id DESC LIMIT 1',
        )
      ).rows[0]?.new_commit ?? null,
  }
}
