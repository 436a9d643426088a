/**
 * A PGlite store dump holds PostgreSQL's files only: PGlite's `dumpDataDir` packs its whole data
 * folder, which also holds the server's run file, the preview key and the content repository. This
 * keeps PGlite's own archive (what `loadDataDir` reads back) entry for entry, minus everything that is
 * not PostgreSQL's: a store dump is data, never credentials (issue 36, docs/decisions/0721).
 */
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
