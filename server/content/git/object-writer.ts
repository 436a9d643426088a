import { createHash, randomBytes } from 'node:crypto'
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { deflateSync } from 'node:zlib'
import type { CatFileBatch } from './cat-file-batch'

const SHA = /^[0-9a-f]{40}$/

interface Entry {
  mode: string
  sha: string
}

/** A path change for a tree: a blob to set (mode 100644), or null to delete the path. */
export interface TreeChange {
  path: string
  blob: string | null
}

/** A commit's author or committer: name, e-mail and when (default now, UTC). */
export interface Ident {
  name: string
  email: string
  when?: Date
}

/**
 * Writes git objects (blobs, trees, commits) in this process, as loose objects in the bare
 * repository — the format git itself writes (zlib of `<type> <size>\0<content>`, named by its
 * SHA-1) — and reads refs from the ref files. A commit then costs no git process starts but the
 * compare-and-swap of its ref (docs/decisions/0986); trees are read through the long-lived
 * `cat-file --batch`, and only the trees along the changed paths are rewritten.
 */
export class ObjectWriter {
  constructor(
    readonly gitDir: string,
    readonly batch: CatFileBatch,
  ) {}

  /** Writes an object unless it exists loose already; returns its name. */
  write(type: 'blob' | 'tree' | 'commit', content: Buffer): string {
    const header = Buffer.from(`${type} ${content.length}\0`, 'utf8')
    const sha = createHash('sha1').update(header).update(content).digest('hex')
    const dir = join(this.gitDir, 'objects', sha.slice(0, 2))
    const file = join(dir, sha.slice(2))
    if (existsSync(file)) return sha
    mkdirSync(dir, { recursive: true })
    // Written under a temporary name and renamed: a reader never sees half an object.
    const tmp = join(dir, `tmp_obj_${randomBytes(6).toString('hex')}`)
    try {
      writeFileSync(tmp, deflateSync(Buffer.concat([header, content])), { mode: 0o444 })
      renameSync(tmp, file)
    } catch (e) {
      rmSync(tmp, { force: true })
      if (!existsSync(file)) throw e
    }
    return sha
  }

  writeBlob(content: string | Buffer): string {
    return this.write('blob', typeof content === 'string' ? Buffer.from(content, 'utf8') : content)
  }

  /** A tree's entries by name; an absent tree is empty. */
  async #entries(tree: string | null): Promise<Map<string, Entry>> {
    const entries = new Map<string, Entry>()
    if (!tree) return entries
    const o = await this.batch.read(tree)
    if (o?.type !== 'tree') throw new Error(`${tree} is not a tree`)
    const data = o.data
    let i = 0
    while (i < data.length) {
      const space = data.indexOf(0x20, i)
      const nul = data.indexOf(0, space)
      const mode = data.subarray(i, space).toString('utf8')
      const name = data.subarray(space + 1, nul).toString('utf8')
      entries.set(name, { mode, sha: data.subarray(nul + 1, nul + 21).toString('hex') })
      i = nul + 21
    }
    return entries
  }

  /** Serialises entries in git's order (a tree sorts as if its name ended in `/`). */
  #writeEntries(entries: Map<string, Entry>): string {
    const key = (name: string, e: Entry) => Buffer.from(e.mode === '40000' ? `${name}/` : name, 'utf8')
    const sorted = [...entries].sort(([a, ea], [b, eb]) => Buffer.compare(key(a, ea), key(b, eb)))
    return this.write(
      'tree',
      Buffer.concat(
        sorted.flatMap(([name, e]) => [
          Buffer.from(`${e.mode} ${name}\0`, 'utf8'),
          Buffer.from(e.sha, 'hex'),
        ]),
      ),
    )
  }

  /** `tree` with the changes applied, or null when nothing is left in it. */
  async #apply(tree: string | null, changes: readonly TreeChange[]): Promise<string | null> {
    const entries = await this.#entries(tree)
    const below = new Map<string, TreeChange[]>()
    for (const c of changes) {
      const slash = c.path.indexOf('/')
      if (slash < 0) {
        if (c.blob) entries.set(c.path, { mode: '100644', sha: c.blob })
        else entries.delete(c.path)
        continue
      }
      const dir = c.path.slice(0, slash)
      below.set(dir, [...(below.get(dir) ?? []), { path: c.path.slice(slash + 1), blob: c.blob }])
    }
    for (const [dir, sub] of below) {
      const old = entries.get(dir)
      const next = await this.#apply(old?.mode === '40000' ? old.sha : null, sub)
      if (next) entries.set(dir, { mode: '40000', sha: next })
      else entries.delete(dir)
    }
    return entries.size ? this.#writeEntries(entries) : null
  }

  /** The tree of `base` (a commit or tree, or none) with files set or deleted. */
  async writeTree(base: string | null, changes: readonly TreeChange[]): Promise<string> {
    let tree: string | null = null
    if (base) {
      const o = await this.batch.read(`${base}^{tree}`)
      if (!o) throw new Error(`${base} is not a commit or tree`)
      tree = o.sha
    }
    return (await this.#apply(tree, changes)) ?? this.write('tree', Buffer.alloc(0))
  }

  /** A commit object, as `git commit-tree` writes it (the message verbatim). */
  writeCommit(
    tree: string,
    parents: readonly string[],
    message: string,
    author: Ident,
    committer: Ident,
  ): string {
    const line = (who: string, i: Ident) => {
      const clean = (s: string) => s.replace(/[<>\n\r\0]/g, '').trim()
      const when = Math.floor((i.when ?? new Date()).getTime() / 1000)
      return `${who} ${clean(i.name)} <${clean(i.email)}> ${when} +0000\n`
    }
    for (const p of [tree, ...parents]) if (!SHA.test(p)) throw new Error(`"${p}" is not an object name`)
    const text = `tree ${tree}\n${parents.map((p) => `parent ${p}\n`).join('')}${line('author', author)}${line('committer', committer)}\n${message}`
    return this.write('commit', Buffer.from(text, 'utf8'))
  }

  /**
   * The object a ref file names (loose, else packed-refs), following a symbolic ref; null when
   * absent. Git writes a ref by renaming its lock file, so a read sees the old or the new value.
   */
  readRef(ref: string, depth = 0): string | null {
    let text: string | null = null
    try {
      text = readFileSync(join(this.gitDir, ref), 'utf8').trim()
    } catch {
      text = null
    }
    if (text?.startsWith('ref: ') && depth < 5) return this.readRef(text.slice(5).trim(), depth + 1)
    if (text && SHA.test(text)) return text
    let packed: string
    try {
      packed = readFileSync(join(this.gitDir, 'packed-refs'), 'utf8')
    } catch {
      return null
    }
    for (const l of packed.split('\n'))
      if (l.endsWith(` ${ref}`) && SHA.test(l.slice(0, 40))) return l.slice(0, 40)
    return null
  }

  /**
   * Moves `ref` to `next` if it is at `expected` (null: absent) the way git does: take
   * `<ref>.lock` exclusively (a writer holding it, git or us, makes this fail), compare, write the
   * lock and rename it over the ref. False when the ref moved or is locked. Bare repositories keep
   * no reflog (core.logAllRefUpdates is off), so there is none to write.
   */
  compareAndSwapRef(ref: string, next: string, expected: string | null): boolean {
    if (!SHA.test(next)) throw new Error(`"${next}" is not an object name`)
    const file = join(this.gitDir, ref)
    mkdirSync(dirname(file), { recursive: true })
    let fd: number
    try {
      fd = openSync(`${file}.lock`, 'wx')
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw e
    }
    let moved = true
    try {
      if (this.readRef(ref) !== expected) return false
      writeSync(fd, `${next}\n`)
      closeSync(fd)
      fd = -1
      renameSync(`${file}.lock`, file)
      moved = false
      return true
    } finally {
      if (fd >= 0) closeSync(fd)
      if (moved) rmSync(`${file}.lock`, { force: true })
    }
  }
}
