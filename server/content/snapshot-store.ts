import { type FSWatcher, watch } from 'node:fs'
import { relative } from 'node:path'
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

/**
 * Holds the snapshot being served. A new snapshot replaces it atomically only when it is valid;
 * otherwise the previous one keeps serving (architecture decision 2).
 */
export class SnapshotStore {
  #current: Snapshot
  #listeners = new Set<(s: Snapshot) => void>()
  #watcher: FSWatcher | undefined
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

  /** A store serving a snapshot built elsewhere (the published git commit; server/content/live-content.ts). */
  static of(snapshot: Snapshot, definitionsDir: string, projectRoot: string): SnapshotStore {
    return new SnapshotStore(snapshot, definitionsDir, projectRoot)
  }

  /** Serves `snapshot` from now on (already validated by its source); false when it is the current one. */
  swap(snapshot: Snapshot): boolean {
    if (snapshot.id === this.#current.id) return false
    this.#current = snapshot
    log('info', 'snapshot swapped', { snapshot: snapshot.id })
    for (const l of this.#listeners) l(snapshot)
    return true
  }

  get current(): Snapshot {
    return this.#current
  }

  onChange(listener: (s: Snapshot) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Rebuilds from the working tree; swaps when valid. Returns whether it swapped. */
  reload(): boolean {
    const result = SnapshotStore.build(this.definitionsDir, this.projectRoot)
    if (!result.ok) {
      this.lastErrors = result.errors
      log('warn', 'definitions refused; previous snapshot keeps serving', {
        errors: result.errors.map(formatDefinitionError),
      })
      return false
    }
    this.lastErrors = []
    if (result.snapshot.id === this.#current.id) return false
    this.#current = result.snapshot
    log('info', 'snapshot swapped', { snapshot: result.snapshot.id })
    for (const l of this.#listeners) l(result.snapshot)
    return true
  }

  /** Watches the definitions folder (development) and reloads on change, debounced. */
  watch(): void {
    if (this.#watcher) return
    let timer: NodeJS.Timeout | undefined
    this.#watcher = watch(this.definitionsDir, { recursive: true }, () => {
      clearTimeout(timer)
      timer = setTimeout(() => this.reload(), 50)
    })
  }

  close(): void {
    this.#watcher?.close()
  }
}
