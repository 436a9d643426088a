import { formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import type { Snapshot } from '../../engine/snapshot/types'
import { log } from '../log'
import type { ContentRepository } from './content-repository'
import { PUBLISHED_REF } from './git/branch-name'
import type { GitSnapshotSource } from './git-snapshot-source'
import type { SnapshotStore } from './snapshot-store'
import { SnapshotRefusedError } from './snapshot-store'

/**
 * The live content when CONTENT_SOURCE=git: the snapshot of `refs/heads/published`, swapped into
 * the SnapshotStore the site serves. With CONTENT_SOURCE=worktree the site keeps serving the
 * working tree and this only tracks the published commit (the control center still works).
 */
export class LiveContent {
  #commit: string | null = null
  /** The store the site serves, when it serves published content (CONTENT_SOURCE=git). */
  #snapshots: SnapshotStore | null = null

  constructor(
    readonly content: ContentRepository,
    readonly source: GitSnapshotSource,
  ) {}

  get snapshots(): SnapshotStore | null {
    return this.#snapshots
  }

  /** From now on, published commits are swapped into `snapshots` (the site serves them). */
  serveInto(snapshots: SnapshotStore): void {
    this.#snapshots = snapshots
  }

  /** The published commit being served (or, in worktree mode, last seen). */
  get commit(): string | null {
    return this.#commit
  }

  /** Builds a commit's snapshot; throws SnapshotRefusedError when it does not validate. */
  async build(commit: string): Promise<Snapshot> {
    const result = await this.source.build(commit)
    if (!result.ok) throw new SnapshotRefusedError(result.errors)
    return result.snapshot
  }

  /** Serves `snapshot` of `commit` (publish has already validated it). */
  swap(commit: string, snapshot: Snapshot): void {
    this.#commit = commit
    this.#snapshots?.swap(snapshot)
  }

  /**
   * Loads the published ref (after fetching from the remote) and swaps when it moved. A commit that
   * does not build keeps the previous snapshot serving (decision 2). Returns whether it changed.
   */
  async refresh(): Promise<boolean> {
    const commit = await this.content.exclusive(async () => {
      await this.content.sync()
      return this.content.repo.resolve(PUBLISHED_REF)
    })
    if (!commit || commit === this.#commit) return false
    if (!this.#snapshots) {
      this.#commit = commit
      return true
    }
    try {
      this.swap(commit, await this.build(commit))
      log('info', 'published content loaded', { commit })
      return true
    } catch (e) {
      log('error', 'published commit refused; previous snapshot keeps serving', {
        commit,
        errors: e instanceof SnapshotRefusedError ? e.errors.map(formatDefinitionError) : String(e),
      })
      return false
    }
  }
}
