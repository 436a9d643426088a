/**
 * A PGlite store dump holds PostgreSQL's files only: PGlite's `dumpDataDir` packs its whole data
 * folder, which also holds the server's run file, the preview key and the content repository. This
 * keeps PGlite's own archive (what `loadDataDir` reads back) entry for entry, minus everything that is
 * not PostgreSQL's: a store dump is data, never credentials (issue 36, docs/decisions/0721).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { gunzip, gzip } from 'node:zlib'

/** Whether a top-level entry of the data folder is PostgreSQL's (an allowlist: anything new stays out). */
export function isPostgresEntry(name: string): boolean {
  return (
    name === 'PG_VERSION' ||
    name === 'base' ||
    name === 'global' ||
    name === 'postmaster.opts' ||
    name === 'postmaster.pid' ||
    /^pg_[a-z_]+(\.conf)?$/.test(name) ||
    /^postgresql(\.auto)?\.conf$/.test(name)
  )
}

const BLOCK = 512

/** The gzipped tar `dump` without the entries whose top-level name is not PostgreSQL's. */
export async function onlyPostgresFiles(dump: Buffer): Promise<Buffer> {
  const tar = await promisify(gunzip)(dump)
  const kept: Buffer[] = []
  let at = 0
  while (at + BLOCK <= tar.length) {
    const head = tar.subarray(at, at + BLOCK)
    if (head.every((b) => b === 0)) break
    const field = (from: number, len: number) =>
      head
        .subarray(from, from + len)
        .toString('utf8')
        .replace(/\0.*$/s, '')
    const prefix = field(345, 155)
    const name = (prefix ? `${prefix}/` : '') + field(0, 100)
    const size = Number.parseInt(field(124, 12).trim() || '0', 8)
    const end = at + BLOCK + Math.ceil(size / BLOCK) * BLOCK
    const top = name.replace(/^\/+/, '').split('/')[0] ?? ''
    if (isPostgresEntry(top)) kept.push(tar.subarray(at, end))
    at = end
  }
  kept.push(Buffer.alloc(2 * BLOCK))
  return promisify(gzip)(Buffer.concat(kept))
}

/** A file or folder of a store snapshot, as read. */
export interface SnapshotEntry {
  /** `/base/1/1259`: PGlite's own spelling, relative to the data folder. */
  name: string
  mode: number
  mtimeMs: number
  /** null for a folder. */
  data: Buffer | null
}

/**
 * Reads PostgreSQL's files of the data folder into memory, folders before their files. Run while
 * nothing writes: the snapshot is the folder as it stood. Synchronous on purpose: from the page cache
 * it is the shortest way through (tens of ms for a fresh store), and nothing may write meanwhile
 * anyway (docs/decisions/0724).
 */
export function readPostgresFiles(dataDir: string): SnapshotEntry[] {
  const entries: SnapshotEntry[] = []
  const walk = (rel: string, top: boolean) => {
    for (const name of readdirSync(join(dataDir, rel)).sort()) {
      if (top && !isPostgresEntry(name)) continue
      const path = `${rel}/${name}`
      const st = statSync(join(dataDir, path))
      if (st.isDirectory()) {
        entries.push({ name: path, mode: st.mode & 0o7777, mtimeMs: st.mtimeMs, data: null })
        walk(path, false)
      } else if (st.isFile())
        entries.push({
          name: path,
          mode: st.mode & 0o7777,
          mtimeMs: st.mtimeMs,
          data: readFileSync(join(dataDir, path)),
        })
    }
  }
  walk('', true)
  return entries
}

/**
 * A gzipped tar of a snapshot in PGlite's own layout (entries `/base/…`), which `loadDataDir` reads
 * back; packed and compressed after the snapshot, while the server runs on.
 */
export async function packSnapshot(entries: SnapshotEntry[]): Promise<Buffer> {
  const parts: Buffer[] = []
  for (const e of entries) {
    const size = e.data?.length ?? 0
    parts.push(tarHeader(e.name, e.mode, size, e.mtimeMs, e.data ? '0' : '5'))
    if (e.data) {
      parts.push(e.data)
      const pad = (BLOCK - (size % BLOCK)) % BLOCK
      if (pad) parts.push(Buffer.alloc(pad))
    }
  }
  parts.push(Buffer.alloc(2 * BLOCK))
  return promisify(gzip)(Buffer.concat(parts))
}

/** One ustar header block; a name over 100 bytes is split into prefix and name. */
function tarHeader(path: string, mode: number, size: number, mtimeMs: number, type: '0' | '5'): Buffer {
  const head = Buffer.alloc(BLOCK)
  let name = path
  let prefix = ''
  if (Buffer.byteLength(name) > 100) {
    const cut = path.lastIndexOf('/', 155)
    prefix = path.slice(0, cut)
    name = path.slice(cut + 1)
    if (cut <= 0 || Buffer.byteLength(name) > 100 || Buffer.byteLength(prefix) > 155)
      throw new Error(`a data file's path is too long for the store archive: ${path}`)
  }
  const octal = (n: number, len: number) => `${n.toString(8).padStart(len - 1, '0')}\0`
  head.write(name, 0, 100, 'utf8')
  head.write(octal(mode, 8), 100, 'ascii')
  head.write(octal(0, 8), 108, 'ascii')
  head.write(octal(0, 8), 116, 'ascii')
  head.write(octal(size, 12), 124, 'ascii')
  head.write(octal(Math.floor(mtimeMs / 1000), 12), 136, 'ascii')
  head.write('        ', 148, 'ascii')
  head.write(type, 156, 'ascii')
  head.write('ustar\u000000', 257, 'ascii')
  head.write(prefix, 345, 155, 'utf8')
  let sum = 0
  for (const b of head) sum += b
  head.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii')
  return head
}
