import { log } from '../log'
import { branchRef, LIVE_BRANCH, PUBLISHED_REF } from './git/branch-name'
import { ContentRepo, RefMovedError } from './git/content-repo'
import { commitWorkingTree, type WorkingTreeSource } from './git/import-content'

/**
 * The content repository as the services use it: the local bare repository, plus, when
 * CONTENT_REMOTE is set, the shared remote that is the truth for every ref (each write is pushed
 * with a lease; reads fetch first). One write at a time per process.
 */
export class ContentRepository {
  #queue: Promise<unknown> = Promise.resolve()
  /**
   * The live commit being served, set by LiveContent: what `live` means to the control center
   * (comparisons, diffs, new branches, publishing), never a refused commit on the ref (docs/decisions/0610).
   */
  servedLive: (() => string | null) | null = null

  constructor(
    readonly repo: ContentRepo,
    readonly remote: string | null,
  ) {}

  static async open(dir: string, remote: string | null): Promise<ContentRepository> {
    return new ContentRepository(await ContentRepo.open(dir), remote)
  }

  close(): void {
    this.repo.close()
  }

  /** Runs `fn` after every earlier exclusive section of this process has finished. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(fn, fn)
    this.#queue = run.catch(() => {})
    return run
  }

  /** Brings local refs up to the remote's (no-op without one). */
  async sync(): Promise<void> {
    if (this.remote) await this.repo.fetch(this.remote)
  }

  /** A branch's head; `live` is the served live commit (the published ref's until one is served). */
  async head(branch: string): Promise<string | null> {
    return branch === LIVE_BRANCH ? this.live() : this.repo.resolve(branchRef(branch))
  }

  /** The served live commit (docs/decisions/0610); without a LiveContent, the published ref's. */
  async live(): Promise<string | null> {
    return this.servedLive?.() ?? this.repo.resolve(PUBLISHED_REF)
  }

  /** Compare-and-swap of a ref, locally and on the remote; the local ref is put back if the push loses. */
  async moveRef(ref: string, next: string, expected: string | null): Promise<void> {
    await this.repo.updateRef(ref, next, expected)
    if (!this.remote) return
    try {
      await this.repo.push(this.remote, ref, next, expected)
    } catch (e) {
      if (expected) await this.repo.updateRef(ref, expected, next).catch(() => {})
      else await this.repo.deleteRef(ref, next).catch(() => {})
      throw e instanceof RefMovedError ? e : e
    }
  }

  /** Deletes a ref if it is still at `expected`, locally and on the remote (archiving a branch). */
  async removeRef(ref: string, expected: string): Promise<void> {
    await this.repo.deleteRef(ref, expected)
    if (!this.remote) return
    try {
      await this.repo.pushDelete(this.remote, ref, expected)
    } catch (e) {
      await this.repo.updateRef(ref, expected, null).catch(() => {})
      throw e
    }
  }

  /**
   * Makes sure `published` exists: fetched from the remote when it has it, else imported from the
   * working tree (first start), checked by `validate` (which throws to refuse), and pushed. Returns
   * the published commit.
   */
  async ensurePublished(
    src: WorkingTreeSource,
    validate?: (commit: string) => Promise<unknown>,
  ): Promise<string> {
    return this.exclusive(async () => {
      await this.sync()
      const existing = await this.repo.resolve(PUBLISHED_REF)
      if (existing) return existing
      const commit = await commitWorkingTree(
        this.repo,
        src,
        null,
        'Import definitions from the code repository',
      )
      // Invalid definitions never become published: the next start imports again once they are fixed.
      await validate?.(commit)
      try {
        await this.moveRef(PUBLISHED_REF, commit, null)
        log('info', 'content repository created from the working tree', { commit })
        return commit
      } catch (e) {
        if (!(e instanceof RefMovedError)) throw e
        // Another instance imported first: use theirs.
        await this.sync()
        const theirs = await this.repo.resolve(PUBLISHED_REF)
        if (!theirs) throw e
        return theirs
      }
    })
  }
}
