import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CatFileBatch } from './cat-file-batch'
import { GitError, git, runGit } from './git-process'
import { ObjectWriter } from './object-writer'

export const ZERO_SHA = '0000000000000000000000000000000000000000'
const SHA = /^[0-9a-f]{40}$/
/** Full ref names read from the ref files; other revisions (`<sha>^`, `HEAD~2`) go to rev-parse. */
const REF_NAME = /^refs\/[a-z0-9][a-z0-9/._-]*$/i

export interface TreeEntry {
  mode: string
  type: 'blob' | 'tree' | 'commit'
  sha: string
  path: string
}

export interface FileChange {
  path: string
  /** New content, or null to delete the file. */
  content: string | Buffer | null
}

export interface Signature {
  name: string
  email: string
}

/** A compare-and-swap on a ref failed: someone moved it first. */
export class RefMovedError extends Error {
  readonly status = 409
  constructor(
    readonly ref: string,
    readonly expected: string | null,
  ) {
    super(`${ref} moved: it is no longer at ${expected ? expected.slice(0, 12) : '(absent)'}`)
  }
}

/**
 * The content repository: a bare git repository written only with plumbing (blobs, trees,
 * commit-tree, compare-and-swap update-ref) and read through one long-lived cat-file --batch. It
 * never has a working tree (ARCHITECTURE decision 1, docs/decisions/0600).
 */
export class ContentRepo {
  readonly #batch: CatFileBatch
  readonly #objects: ObjectWriter
  /**
   * Write blobs, trees and commits with one git process each, as before docs/decisions/0986 —
   * kept only so the control-center bench measures the old path beside the new in one run.
   */
  processWrites = false

  private constructor(readonly dir: string) {
    this.#batch = new CatFileBatch(dir)
    this.#objects = new ObjectWriter(dir, this.#batch)
  }

  /** Opens the bare repository at `dir`, creating it when missing. */
  static async open(dir: string): Promise<ContentRepo> {
    if (!existsSync(join(dir, 'HEAD'))) {
      await runGit(dir, ['init', '--bare', '-q', dir])
      await git(dir, ['symbolic-ref', 'HEAD', 'refs/heads/published'])
      await git(dir, ['config', 'gc.auto', '0'])
    }
    return new ContentRepo(dir)
  }

  close(): void {
    this.#batch.close()
  }

  /** The commit a ref (or sha) names, or null when it does not exist. */
  async resolve(ref: string): Promise<string | null> {
    // A branch's head is read from its ref file (no process start); anything else goes to git.
    if (!this.processWrites && REF_NAME.test(ref)) {
      const sha = this.#objects.readRef(ref)
      if (!sha) return null
      const o = await this.#batch.read(`${sha}^{commit}`)
      return o?.sha ?? null
    }
    const r = await runGit(this.dir, ['rev-parse', '--verify', '-q', `${ref}^{commit}`], { okCodes: [1] })
    const out = r.stdout.toString('utf8').trim()
    return r.code === 0 && SHA.test(out) ? out : null
  }

  /** Refs under a prefix with the commit each points at. */
  async listRefs(prefix: string): Promise<{ ref: string; commit: string }[]> {
    const out = await git(this.dir, ['for-each-ref', '--format=%(refname) %(objectname)', prefix])
    return out
      ? out.split('\n').map((l) => {
          const [ref, commit] = l.split(' ')
          return { ref, commit }
        })
      : []
  }

  /** Every file of a commit's tree (recursively), optionally under some folders. */
  async lsTree(commit: string, under: readonly string[] = []): Promise<TreeEntry[]> {
    const out = (await runGit(this.dir, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', ...under]))
      .stdout
    const entries: TreeEntry[] = []
    for (const rec of out.toString('utf8').split('\0')) {
      if (!rec) continue
      const tab = rec.indexOf('\t')
      const [mode, type, sha] = rec.slice(0, tab).split(' ')
      entries.push({ mode, type: type as TreeEntry['type'], sha, path: rec.slice(tab + 1) })
    }
    return entries
  }

  /** An object's content; null when missing. Names may be `<sha>` or `<commit>:<path>`. */
  async read(name: string): Promise<Buffer | null> {
    return (await this.#batch.read(name))?.data ?? null
  }

  async readText(name: string): Promise<string | null> {
    return (await this.read(name))?.toString('utf8') ?? null
  }

  /** The blob sha of a path at a commit, or null. */
  async blobAt(commit: string, path: string): Promise<string | null> {
    // Through the batch process (a commit never changes), not a process of its own.
    const o = await this.#batch.read(`${commit}:${path}`)
    return o?.type === 'blob' ? o.sha : null
  }

  async treeOf(commit: string): Promise<string> {
    return git(this.dir, ['rev-parse', `${commit}^{tree}`])
  }

  async writeBlob(content: string | Buffer): Promise<string> {
    if (!this.processWrites) return this.#objects.writeBlob(content)
    return git(this.dir, ['hash-object', '-w', '--stdin'], { input: content })
  }

  /** Writes blobs for files on disk in one process (import). */
  async writeBlobsFromPaths(paths: readonly string[]): Promise<string[]> {
    if (!paths.length) return []
    const out = await git(this.dir, ['hash-object', '-w', '--no-filters', '--stdin-paths'], {
      input: `${paths.join('\n')}\n`,
    })
    return out.split('\n')
  }

  /**
   * A tree: `base`'s tree (a commit or tree, or empty) with files set or deleted, built in a
   * throw-away index (read-tree, update-index --index-info, write-tree); no working tree.
   */
  async writeTree(
    base: string | null,
    changes: readonly { path: string; blob: string | null }[],
  ): Promise<string> {
    for (const c of changes) checkRepoPath(c.path)
    if (!this.processWrites) return this.#objects.writeTree(base, changes)
    const tmp = mkdtempSync(join(tmpdir(), 'fw-index-'))
    const env = { GIT_INDEX_FILE: join(tmp, 'index') }
    try {
      await runGit(this.dir, base ? ['read-tree', base] : ['read-tree', '--empty'], { env })
      if (changes.length) {
        const lines = changes.map((c) => {
          checkRepoPath(c.path)
          return c.blob ? `100644 ${c.blob}\t${c.path}` : `0 ${ZERO_SHA}\t${c.path}`
        })
        await runGit(this.dir, ['update-index', '-z', '--index-info'], {
          env,
          input: `${lines.join('\0')}\0`,
        })
      }
      return await git(this.dir, ['write-tree'], { env })
    } finally {
      rmSync(tmp, { recursive: true, force: true })
    }
  }

  /** A commit object; author is the staff user, committer the control center. */
  async commitTree(
    tree: string,
    parents: readonly string[],
    message: string,
    author?: Signature,
    when?: Date,
  ): Promise<string> {
    if (!this.processWrites) {
      const committer = { name: COMMITTER.name, email: COMMITTER.email, when }
      return this.#objects.writeCommit(
        tree,
        parents,
        message,
        author ? { ...author, when } : committer,
        committer,
      )
    }
    const env: Record<string, string> = {}
    if (author) {
      env.GIT_AUTHOR_NAME = author.name
      env.GIT_AUTHOR_EMAIL = author.email
    }
    if (when) env.GIT_AUTHOR_DATE = env.GIT_COMMITTER_DATE = `${Math.floor(when.getTime() / 1000)} +0000`
    return git(this.dir, ['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'], {
      env,
      input: message,
    })
  }

  /** Commits file changes on top of `parent` (or as a root commit); returns the new commit. */
  async commitFiles(
    parent: string | null,
    changes: readonly FileChange[],
    message: string,
    author?: Signature,
    extraParents: readonly string[] = [],
  ): Promise<string> {
    for (const c of changes) checkRepoPath(c.path)
    const blobs = await Promise.all(
      changes.map(async (c) => ({
        path: c.path,
        blob: c.content === null ? null : await this.writeBlob(c.content),
      })),
    )
    const tree = await this.writeTree(parent, blobs)
    return this.commitTree(tree, [...(parent ? [parent] : []), ...extraParents], message, author)
  }

  /**
   * Moves `ref` to `next` only if it is at `expected` (null: only if it does not exist). Throws
   * RefMovedError otherwise — git's own lock makes this a real compare-and-swap.
   */
  async updateRef(ref: string, next: string, expected: string | null): Promise<void> {
    if (!this.processWrites && REF_NAME.test(ref)) {
      if (!this.#objects.compareAndSwapRef(ref, next, expected)) throw new RefMovedError(ref, expected)
      return
    }
    try {
      await runGit(this.dir, ['update-ref', ref, next, expected ?? ZERO_SHA])
    } catch (e) {
      if (e instanceof GitError && /cannot lock ref|but expected|already exists/.test(e.stderr))
        throw new RefMovedError(ref, expected)
      throw e
    }
  }

  async deleteRef(ref: string, expected: string): Promise<void> {
    await runGit(this.dir, ['update-ref', '-d', ref, expected])
  }

  async mergeBase(a: string, b: string): Promise<string | null> {
    const r = await runGit(this.dir, ['merge-base', a, b], { okCodes: [1] })
    return r.code === 0 ? r.stdout.toString('utf8').trim() : null
  }

  /** Whether `ancestor` is reachable from `commit` (a fast-forward is possible). */
  async isAncestor(ancestor: string, commit: string): Promise<boolean> {
    const r = await runGit(this.dir, ['merge-base', '--is-ancestor', ancestor, commit], { okCodes: [1] })
    return r.code === 0
  }

  /** Paths that differ between two commits (or trees). */
  async changedPaths(from: string, to: string): Promise<string[]> {
    const out = (await runGit(this.dir, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', from, to]))
      .stdout
    return out.toString('utf8').split('\0').filter(Boolean)
  }

  /** The first-parent log of a ref: sha, author, time, subject, trailers. */
  async log(
    ref: string,
    max = 50,
  ): Promise<{ commit: string; author: string; email: string; at: string; subject: string; body: string }[]> {
    if (max === 1 && !this.processWrites) {
      // The last commit only (every branch row): one read through the batch, no process.
      const sha = SHA.test(ref) ? ref : await this.resolve(ref)
      const o = sha ? await this.#batch.read(sha) : null
      return o?.type === 'commit' ? [{ commit: o.sha, ...parseCommit(o.data.toString('utf8')) }] : []
    }
    const out = await git(this.dir, [
      'log',
      '--first-parent',
      `--max-count=${max}`,
      '--format=%H%x1f%an%x1f%ae%x1f%aI%x1f%s%x1f%b%x1e',
      ref,
    ])
    return out
      .split('\x1e')
      .map((r) => r.trim())
      .filter(Boolean)
      .map((r) => {
        const [commit, author, email, at, subject, body] = r.split('\x1f')
        return { commit, author, email, at, subject, body: body ?? '' }
      })
  }

  /** Pushes `ref` to `remote` only if the remote still has it at `expected` (a lease). */
  async push(remote: string, ref: string, next: string, expected: string | null): Promise<void> {
    try {
      await runGit(this.dir, [
        'push',
        '--porcelain',
        '--atomic',
        `--force-with-lease=${ref}:${expected ?? ''}`,
        remote,
        `${next}:${ref}`,
      ])
    } catch (e) {
      if (e instanceof GitError && /stale info|rejected|fetch first|non-fast-forward/.test(e.stderr))
        throw new RefMovedError(ref, expected)
      throw e
    }
  }

  /** Deletes `ref` on `remote` only if the remote still has it at `expected`. */
  async pushDelete(remote: string, ref: string, expected: string): Promise<void> {
    try {
      await runGit(this.dir, [
        'push',
        '--porcelain',
        '--atomic',
        `--force-with-lease=${ref}:${expected}`,
        remote,
        `:${ref}`,
      ])
    } catch (e) {
      if (e instanceof GitError && /stale info|rejected/.test(e.stderr))
        throw new RefMovedError(ref, expected)
      throw e
    }
  }

  /** Fetches every branch of `remote` over the local ones (the remote is the truth when configured). */
  async fetch(remote: string): Promise<void> {
    await runGit(this.dir, [
      'fetch',
      '-q',
      '--prune',
      '--update-head-ok',
      remote,
      '+refs/heads/*:refs/heads/*',
    ])
  }
}

/** The committer of every control-center commit (as git-process.ts sets it for git itself). */
const COMMITTER = { name: 'Funnelworks Control Center', email: 'control-center@funnelworks.invalid' }

/** A commit object's author, strict ISO date, subject and body, as `git log` prints %an %ae %aI %s %b. */
export function parseCommit(text: string): {
  author: string
  email: string
  at: string
  subject: string
  body: string
} {
  const blank = text.indexOf('\n\n')
  const headers = blank < 0 ? text : text.slice(0, blank)
  const message = blank < 0 ? '' : text.slice(blank + 2)
  const m = /^author (.*) <([^>]*)> (\d+) ([+-])(\d\d)(\d\d)$/m.exec(headers)
  let at = ''
  if (m) {
    const offset = (m[4] === '-' ? -1 : 1) * (Number(m[5]) * 60 + Number(m[6]))
    const local = new Date((Number(m[3]) + offset * 60) * 1000).toISOString().slice(0, 19)
    at = `${local}${m[4]}${m[5]}:${m[6]}`
  }
  const paragraphs = message.replace(/^\n+/, '').split(/\n\s*\n/)
  const subject = (paragraphs[0] ?? '')
    .split('\n')
    .map((l) => l.trim())
    .join(' ')
    .trim()
  const body = message
    .replace(/^\n+/, '')
    .slice((paragraphs[0] ?? '').length)
    .replace(/^\n+/, '')
  return { author: m?.[1] ?? '', email: m?.[2] ?? '', at, subject, body: body.trim() }
}

/** Paths a commit may touch: relative, forward slashes, no `..`, no `.git`. */
export function checkRepoPath(path: string): void {
  if (
    !path ||
    path.startsWith('/') ||
    path.split('/').some((s) => s === '' || s === '.' || s === '..' || s === '.git') ||
    /[\0\n\r\\]/.test(path)
  )
    throw Object.assign(new Error(`"${path}" is not a valid content path`), { status: 400 })
}
