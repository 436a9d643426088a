import { relative } from 'node:path'
import { type FSWatcher, watch } from 'chokidar'
import { buildSnapshot, formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import type { DefinitionError, Snapshot } from '../../engine/snapshot/types'
import { log } from '../log'
import { publicAssetExists, readDefinitionFiles, toPosix } from './read-definitions'

export class SnapshotRefusedError extends Error {
  constructor(readonly errors: DefinitionError[]) {
    super(
      `definitions refused (${errors.length} error${errors.length === 1 ? '' : 's'}):\n${errors.map(formatDefinitionError).join('\n')}`,
    )
  }
}

type ProblemListener = (errors: readonly DefinitionError[], change: { swapped: boolean }) => void

/**
 * Holds the snapshot being served. A new snapshot replaces it atomically only when it is valid;
 * otherwise the previous one keeps serving (architecture decision 2).
 */
export class SnapshotStore {
  #current: Snapshot
  #listeners = new Set<(s: Snapshot) => void>()
  #problemListeners = new Set<ProblemListener>()
  #watcher: FSWatcher | undefined
  /** The errors of the last refused build, empty once the definitions are valid again. */
  lastErrors: DefinitionError[] = []

  private constructor(
    initial: Snapshot,
    readonly definitionsDir: string,
    readonly projectRoot: string,
  ) {
    this.#current = initial
  }

  /** Loads from the working tree; throws SnapshotRefusedError when the definitions are invalid. */
  static load(definitionsDir: string, projectRoot: string): SnapshotStore {
    const result = SnapshotStore.build(definitionsDir, projectRoot)
    if (!result.ok) throw new SnapshotRefusedError(result.errors)
    return new SnapshotStore(result.snapshot, definitionsDir, projectRoot)
  }

  /** Builds a snapshot; file names are relative to `fileRoot`, images are looked up under `assetsRoot`/ui/public. */
  static build(definitionsDir: string, fileRoot: string, assetsRoot: string = fileRoot) {
    const files = readDefinitionFiles(definitionsDir, fileRoot)
    return buildSnapshot(files, {
      root: toPosix(relative(fileRoot, definitionsDir)),
      assetExists: publicAssetExists(assetsRoot),
    })
  }

  get current(): Snapshot {
    return this.#current
  }

  onChange(listener: (s: Snapshot) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /**
   * Called when the refused-build errors change: with the errors when a build is refused, with [] when
   * the definitions are valid again (even if the result equals the snapshot still serving).
   */
  onProblems(listener: ProblemListener): () => void {
    this.#problemListeners.add(listener)
    return () => this.#problemListeners.delete(listener)
  }

  #setProblems(errors: DefinitionError[], swapped = false): void {
    const changed = errors.length > 0 || this.lastErrors.length > 0
    this.lastErrors = errors
    if (changed) for (const l of this.#problemListeners) l(errors, { swapped })
  }

  /** Rebuilds from the working tree; swaps when valid. Returns whether it swapped. */
  reload(): boolean {
    const result = SnapshotStore.build(this.definitionsDir, this.projectRoot)
    if (!result.ok) {
      log('warn', 'definitions refused; previous snapshot keeps serving', {
        errors: result.errors.map(formatDefinitionError),
      })
      this.#setProblems(result.errors)
      return false
    }
    if (result.snapshot.id === this.#current.id) {
      this.#setProblems([])
      return false
    }
    this.#current = result.snapshot
    log('info', 'snapshot swapped', { snapshot: result.snapshot.id })
    for (const l of this.#listeners) l(result.snapshot)
    this.#setProblems([], true)
    return true
  }

  /**
   * Watches the definitions folder (development) and reloads on change, debounced. chokidar watches
   * the folders, so a file saved by rename (vim, `sed -i`, `git checkout` give it a new inode) keeps
   * being seen; Node's own recursive fs.watch stops after the first such save on Linux.
   * Resolves once the watcher has scanned the folder.
   */
  watch(): Promise<void> {
    if (this.#watcher) return Promise.resolve()
    let timer: NodeJS.Timeout | undefined
    const watcher = watch(this.definitionsDir, { ignoreInitial: true, atomic: true })
    this.#watcher = watcher
    watcher.on('all', () => {
      clearTimeout(timer)
      timer = setTimeout(() => this.reload(), 50)
    })
    watcher.on('error', (e) => log('warn', 'watching the definitions failed', { error: String(e) }))
    return new Promise((resolve) => watcher.once('ready', () => resolve()))
  }

  async close(): Promise<void> {
    await this.#watcher?.close()
    this.#watcher = undefined
  }
}
