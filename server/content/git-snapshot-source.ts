import type { DefinitionFile, SnapshotResult } from '../../engine/snapshot/types'
import { buildContentSnapshot } from './build-content-snapshot'
import type { ContentRepo } from './git/content-repo'
import { CONTENT_DEFINITIONS, CONTENT_IMAGES } from './git/import-content'

/** Unsaved drafts laid over a commit: path → text, or null for a deleted file. */
export type Overlay = ReadonlyMap<string, string | null>

/** How many branch snapshots stay built (each is 1–2 MB at today's size; docs/decisions/0600). */
export const BRANCH_SNAPSHOT_CACHE_SIZE = 16

/**
 * Snapshots from commits: reads a commit's definitions with one ls-tree and the long-lived
 * cat-file batch, then builds them through the engine. Image references are checked against the
 * commit's own `ui/public/images`; other public files (brand logos, favicon) stay in the code
 * repository and are checked there.
 */
export class GitSnapshotSource {
  constructor(
    readonly repo: ContentRepo,
    /** Public files outside /images/ (developer-managed), checked in the code's ui/public. */
    readonly codeAssetExists: (src: string) => boolean,
  ) {}

  async files(commit: string): Promise<{ files: DefinitionFile[]; assets: Set<string> }> {
    const entries = await this.repo.lsTree(commit, [CONTENT_DEFINITIONS, CONTENT_IMAGES])
    const assets = new Set<string>()
    const defs = entries.filter((e) => {
      if (e.path.startsWith(`${CONTENT_IMAGES}/`)) {
        assets.add(e.path.slice('ui/public'.length))
        return false
      }
      return e.path.endsWith('.json')
    })
    const texts = await Promise.all(defs.map((e) => this.repo.readText(e.sha)))
    return { files: defs.map((e, i) => ({ path: e.path, text: texts[i] ?? '' })), assets }
  }

  assetCheck(assets: ReadonlySet<string>): (src: string) => boolean {
    return (src) => {
      const clean = src.split('?')[0]
      if (clean.includes('..')) return false
      if (clean.startsWith('/images/')) return assets.has(clean)
      return this.codeAssetExists(src)
    }
  }

  /** Builds the snapshot of a commit, with drafts laid over it when given. */
  async build(commit: string, overlay?: Overlay): Promise<SnapshotResult> {
    const { files, assets } = await this.files(commit)
    let list = files
    if (overlay?.size) {
      const byPath = new Map(files.map((f) => [f.path, f.text]))
      for (const [path, text] of overlay) {
        if (text === null) byPath.delete(path)
        else byPath.set(path, text)
      }
      list = [...byPath].map(([path, text]) => ({ path, text }))
    }
    return buildContentSnapshot(list, this.assetCheck(assets))
  }
}

/**
 * Branch snapshots in a small LRU keyed by commit (plus a hash of the drafts laid over it): a key
 * never changes meaning, so entries never need invalidating, only evicting.
 */
export class BranchSnapshots {
  readonly #entries = new Map<string, Promise<SnapshotResult>>()

  constructor(
    readonly source: GitSnapshotSource,
    readonly capacity = BRANCH_SNAPSHOT_CACHE_SIZE,
  ) {}

  get size(): number {
    return this.#entries.size
  }

  has(commit: string, draftsHash?: string): boolean {
    return this.#entries.has(draftsHash ? `${commit}+${draftsHash}` : commit)
  }

  get(commit: string, overlay?: Overlay, draftsHash?: string): Promise<SnapshotResult> {
    const key = draftsHash ? `${commit}+${draftsHash}` : commit
    const hit = this.#entries.get(key)
    if (hit) {
      this.#entries.delete(key)
      this.#entries.set(key, hit)
      return hit
    }
    const built = this.source.build(commit, draftsHash ? overlay : undefined)
    built.catch(() => this.#entries.delete(key))
    this.#entries.set(key, built)
    while (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!)
    return built
  }

  clear(): void {
    this.#entries.clear()
  }
}
