import { createActor } from 'xstate'
import { liveGuardMachine, type RefusedCommit } from '../../engine/content/live-guard-machine'
import { formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import type { DefinitionError, Snapshot } from '../../engine/snapshot/types'
import type { LiveHealth as GeneratedLiveHealth } from '../../schemas/generated/cc-answers/live'
import { log } from '../log'
import { checkCommit } from './content-check'
import type { ContentRepository } from './content-repository'
import { PUBLISHED_REF } from './git/branch-name'
import type { GitSnapshotSource } from './git-snapshot-source'
import type { SnapshotStore } from './snapshot-store'
import { SnapshotRefusedError } from './snapshot-store'

/** How far back published's first-parent history is searched for a commit that validates, at start (docs/decisions/0610). */
export const LAST_GOOD_SEARCH_DEPTH = 50

/** What /healthz and the control center's banner say about live. */
export type LiveHealth = GeneratedLiveHealth

/**
 * The live content: the last commit of `refs/heads/published` that passed the check (validation and
 * the blocking publish gates; docs/decisions/0610), swapped into the SnapshotStore the site serves
 * when CONTENT_SOURCE=git. A commit on published that fails is refused: the previous one keeps
 * serving, and the control center compares, diffs and publishes against the served one. With
 * CONTENT_SOURCE=worktree the site serves the working tree and this only tracks the served commit.
 */
export class LiveContent {
  /** Serving, refused and verified: the live-guard machine (engine/content/live-guard-machine.ts). */
  readonly #guard = createActor(
    liveGuardMachine.provide({
      actions: {
        reportRefused: ({ context }) =>
          log('error', 'published commit refused; the last good commit keeps serving', {
            commit: context.refused?.commit,
            serving: context.serving,
            errors: context.refused?.errors.map(formatDefinitionError),
          }),
        reportRestored: ({ context }) =>
          log('info', 'published is back at the served commit', { commit: context.serving }),
      },
    }),
  ).start()
  /** The served commit's snapshot: what the gates compare a newly published commit with. */
  #snapshot: Snapshot | null = null
  /** The store the site serves, when it serves published content (CONTENT_SOURCE=git). */
  #snapshots: SnapshotStore | null = null
  /** Once the data store is open: whether a commit went live through the publisher (its gates ran). */
  #published: ((commit: string) => Promise<boolean>) | null = null
  #latestPublished: (() => Promise<string | null>) | null = null
  /** Records a move of live no publication made (a push, or a ref moved by hand; docs/decisions/0620). */
  #recordMove: ((move: { from: string | null; to: string; snapshotId: string }) => Promise<unknown>) | null =
    null

  constructor(
    readonly content: ContentRepository,
    readonly source: GitSnapshotSource,
    /** Each blocking gate's time budget per funnel (CC_GATE_BUDGET_MS). */
    readonly gateBudgetMs?: number,
  ) {
    content.servedLive = () => this.commit
  }

  get #state() {
    return this.#guard.getSnapshot().context
  }

  get snapshots(): SnapshotStore | null {
    return this.#snapshots
  }

  /** From now on, published commits are swapped into `snapshots` (the site serves them). */
  serveInto(snapshots: SnapshotStore): void {
    this.#snapshots = snapshots
  }

  /** The published commit being served (or, in worktree mode, the last that passed). */
  get commit(): string | null {
    return this.#state.serving
  }

  /** The commit on published that is refused, while it is there. */
  get refused(): RefusedCommit | null {
    return this.#state.refused
  }

  health(): LiveHealth {
    const { refused: r, serving } = this.#state
    return {
      content: r ? 'degraded' : 'ok',
      serving,
      refused: r ? { commit: r.commit, errors: r.errors.map(formatDefinitionError), at: r.at } : null,
    }
  }

  /** Tells publications apart from other moves of the ref, once the data store is open. */
  trustPublications(p: {
    published: (commit: string) => Promise<boolean>
    latest: () => Promise<string | null>
    /** Writes the publication and audit rows of a move of live no publication made. */
    record?: (move: { from: string | null; to: string; snapshotId: string }) => Promise<unknown>
  }): void {
    this.#published = p.published
    this.#latestPublished = p.latest
    this.#recordMove = p.record ?? null
  }

  /** Every move of live is on the record: one no publication made is recorded as a push or a move by hand. */
  async #record(from: string | null, to: string, snapshotId: string): Promise<void> {
    try {
      await this.#recordMove?.({ from, to, snapshotId })
    } catch (e) {
      log('error', 'could not record a move of live', { from, to, error: String(e) })
    }
  }

  /** Builds a commit's snapshot; throws SnapshotRefusedError when it does not validate. */
  async build(commit: string): Promise<Snapshot> {
    const result = await this.source.build(commit)
    if (!result.ok) throw new SnapshotRefusedError(result.errors)
    return result.snapshot
  }

  /** Serves `snapshot` of `commit` (publish has already validated it and run the gates). */
  swap(commit: string, snapshot: Snapshot): void {
    this.#snapshot = snapshot
    this.#guard.send({ type: 'SERVE', commit, verified: true })
    this.#snapshots?.swap(snapshot)
  }

  /**
   * At start: the newest commit of published's first-parent history that validates (the gates wait
   * for the data store: verify()). A newer commit that does not is refused, so a bad push never stops
   * a start. Throws SnapshotRefusedError when no commit in reach validates.
   */
  async lastGood(imported?: {
    commit: string
    snapshot: Snapshot
  }): Promise<{ commit: string; snapshot: Snapshot }> {
    const head = await this.content.repo.resolve(PUBLISHED_REF)
    if (!head) throw new Error('nothing is published')
    let headErrors: DefinitionError[] | null = null
    for (const { commit } of await this.content.repo.log(head, LAST_GOOD_SEARCH_DEPTH)) {
      const result =
        imported?.commit === commit
          ? { ok: true as const, snapshot: imported.snapshot }
          : await this.source.build(commit)
      if (!result.ok) {
        headErrors ??= result.errors
        continue
      }
      this.#snapshot = result.snapshot
      this.#guard.send({ type: 'SERVE', commit, verified: false })
      if (headErrors) this.#refuse(head, headErrors)
      return { commit, snapshot: result.snapshot }
    }
    throw new SnapshotRefusedError(headErrors ?? [])
  }

  /**
   * Loads the published ref (after fetching from the remote) and swaps when it moved to a commit
   * that passes the check; one that fails is refused (logged once) and the served one keeps serving.
   * Returns whether it changed.
   */
  async refresh(): Promise<boolean> {
    const commit = await this.content.exclusive(async () => {
      await this.content.sync()
      return this.content.repo.resolve(PUBLISHED_REF)
    })
    if (!commit) return false
    this.#guard.send({ type: 'REF_SEEN', commit })
    if (commit === this.commit || commit === this.refused?.commit) return false
    const serving = this.commit
    // A publication's gates ran in the publisher (or an admin went past them): it is only built.
    const recorded = (await this.#published?.(commit)) ?? false
    const { errors, snapshot } = recorded
      ? await this.source
          .build(commit)
          .then((r) => (r.ok ? { errors: [], snapshot: r.snapshot } : { errors: r.errors, snapshot: null }))
      : await checkCommit(this.source, commit, this.#snapshot, this.gateBudgetMs)
    // A publish of this process swapped while the check ran: what it serves is newer.
    if (this.commit !== serving) return false
    if (!snapshot) {
      this.#refuse(commit, errors)
      return false
    }
    this.swap(commit, snapshot)
    log('info', 'published content loaded', { commit })
    // Recorded unless the latest publication put live here (a rewind to an older one is a move too).
    await this.#record(serving, commit, snapshot.id)
    return true
  }

  /** Whether the published ref sits somewhere the served commit and the refused one do not (no fetch). */
  async publishedMoved(): Promise<boolean> {
    const commit = await this.content.repo.resolve(PUBLISHED_REF)
    return !!commit && commit !== this.commit && commit !== this.refused?.commit
  }

  /**
   * Once the data store is open: a commit served at start that no publication put live runs the
   * gates against the latest publication's; when they refuse it, that publication serves instead.
   */
  async verify(): Promise<void> {
    const { serving: served, verified } = this.#state
    if (verified || !served || !this.#published || !this.#latestPublished) return
    const latest = await this.#latestPublished()
    if (!latest || latest === served) {
      this.#guard.send({ type: 'VERIFIED' })
      return
    }
    if (await this.#published(served)) {
      // Put back (while no server ran) to a commit an earlier publication made live: on the record now.
      this.#guard.send({ type: 'VERIFIED' })
      if (this.#snapshot) await this.#record(latest, served, this.#snapshot.id)
      return
    }
    const before = await this.source.build(latest).catch(() => null)
    if (!before?.ok) {
      this.#guard.send({ type: 'VERIFIED' })
      return
    }
    const { errors, snapshot } = await checkCommit(this.source, served, before.snapshot, this.gateBudgetMs)
    if (this.commit !== served) return // something newer went live meanwhile
    if (!errors.length) {
      this.#guard.send({ type: 'VERIFIED' })
      // Moved while no server ran (a push, or by hand): on the record now.
      if (snapshot) await this.#record(latest, served, snapshot.id)
      return
    }
    this.#snapshot = before.snapshot
    this.#guard.send({ type: 'FALL_BACK', commit: latest })
    this.#snapshots?.swap(before.snapshot)
    log('info', 'serving the latest publication instead', { commit: latest })
    // A refusal found at start (a newer commit that did not validate) stays the one reported.
    if (!this.refused) this.#refuse((await this.content.repo.resolve(PUBLISHED_REF)) ?? served, errors)
  }

  #refuse(commit: string, errors: DefinitionError[]): void {
    this.#guard.send({ type: 'REFUSE', refused: { commit, errors, at: new Date().toISOString() } })
  }
}
