import { isIP } from 'node:net'
import { MmdbDecoder } from './mmdb-decoder'
import { PagedFile, type PagedFileOptions } from './paged-file'

/** "\xAB\xCD\xEFMaxMind.com": the metadata follows the last one in the file. */
const METADATA_MARKER = Buffer.from('abcdef4d61784d696e642e636f6d', 'hex')
/** The metadata section is at most 128 KiB, marker included. */
const METADATA_MAX_BYTES = 128 * 1024
/** Sixteen zero bytes between the search tree and the data section. */
const DATA_SECTION_SEPARATOR = 16

export interface MmdbMetadata {
  binaryFormatMajorVersion: number
  binaryFormatMinorVersion: number
  buildEpoch: Date
  databaseType: string
  ipVersion: 4 | 6
  nodeCount: number
  recordSize: 24 | 28 | 32
  searchTreeSize: number
}

/**
 * A MaxMind DB (.mmdb) reader that keeps the file on disk: each lookup walks the search tree and
 * decodes its record with positioned reads through a small LRU page cache (PagedFile), instead of
 * reading the whole file into memory as mmdb-lib does. Answers are the same as mmdb-lib's, except
 * that an IPv6 address in an IPv4-only database is an error (as in libmaxminddb) rather than the
 * record of the IPv4 address made of its first 32 bits.
 */
export class MmdbReader {
  readonly metadata: MmdbMetadata
  readonly #file: PagedFile
  readonly #decoder: MmdbDecoder
  readonly #nodeBytes: number
  readonly #dataEnd: number
  /** Where IPv4 addresses start in an IPv6 tree (after 96 zero bits); 0 in an IPv4 tree. */
  readonly #ipv4Start: number

  /** Opens `path` and reads its metadata; throws an error naming the file when it is not a MaxMind DB. */
  constructor(
    readonly path: string,
    options: PagedFileOptions = {},
  ) {
    this.#file = new PagedFile(path, options)
    try {
      const markerAt = findMetadataMarker(this.#file)
      const metadataStart = markerAt + METADATA_MARKER.length
      let raw: unknown
      try {
        raw = new MmdbDecoder(this.#file, metadataStart).decode(metadataStart)
      } catch (e) {
        throw new Error(`${path}: unreadable metadata (${(e as Error).message})`)
      }
      this.metadata = checkMetadata(path, raw)
      const { searchTreeSize, recordSize } = this.metadata
      this.#nodeBytes = recordSize / 4
      if (searchTreeSize + DATA_SECTION_SEPARATOR > markerAt)
        throw new Error(
          `${path}: the metadata says the search tree is ${searchTreeSize} bytes, but the file holds ${markerAt} bytes before its metadata: truncated?`,
        )
      const separator = this.#file.bytes(searchTreeSize, DATA_SECTION_SEPARATOR)
      if (separator.some((b) => b !== 0))
        throw new Error(`${path}: no data section separator after the search tree: corrupt database?`)
      this.#dataEnd = markerAt
      this.#decoder = new MmdbDecoder(this.#file, searchTreeSize + DATA_SECTION_SEPARATOR)
      this.#ipv4Start = this.#findIpv4Start()
    } catch (e) {
      this.#file.close()
      throw e
    }
  }

  /**
   * The record of the network holding `ip` (IPv4 or IPv6 text), or null when the database has none.
   * Throws for text that is not an IP address and for an IPv6 address in an IPv4-only database.
   */
  get(ip: string): unknown {
    const address = ipBytes(ip)
    if (!address) throw new Error(`not an IP address: ${JSON.stringify(ip)}`)
    const { nodeCount, ipVersion } = this.metadata
    if (address.length === 16 && ipVersion === 4)
      throw new Error(`${this.path}: an IPv4-only database cannot look up the IPv6 address ${ip}`)
    const bits = address.length * 8
    let node = address.length === 4 ? this.#ipv4Start : 0
    for (let i = 0; i < bits && node < nodeCount; i++)
      node = this.#record(node, (address[i >> 3] >> (7 - (i & 7))) & 1)
    if (node <= nodeCount) return null
    const offset = node - nodeCount + this.metadata.searchTreeSize
    if (offset >= this.#dataEnd)
      throw new Error(`${this.path}: the search tree points past the data section: corrupt database?`)
    return this.#decoder.decode(offset)
  }

  /** Bytes of the file held in memory now, and the bound they never exceed. */
  get cache(): { bytes: number; maxBytes: number; hits: number; misses: number } {
    const { hits, misses } = this.#file.stats
    return {
      bytes: this.#file.cachedBytes,
      maxBytes: this.#file.maxPages * this.#file.pageSize,
      hits,
      misses,
    }
  }

  close(): void {
    this.#file.close()
  }

  /** The left (0) or right (1) record of a search tree node. */
  #record(node: number, right: number): number {
    const f = this.#file
    const at = node * this.#nodeBytes
    switch (this.metadata.recordSize) {
      case 24: {
        const o = at + right * 3
        return (f.u8(o) << 16) | (f.u8(o + 1) << 8) | f.u8(o + 2)
      }
      case 28: {
        const middle = f.u8(at + 3)
        return right
          ? ((middle & 0x0f) << 24) | (f.u8(at + 4) << 16) | (f.u8(at + 5) << 8) | f.u8(at + 6)
          : ((middle & 0xf0) << 20) | (f.u8(at) << 16) | (f.u8(at + 1) << 8) | f.u8(at + 2)
      }
      default: {
        const o = at + right * 4
        return f.u8(o) * 0x1000000 + ((f.u8(o + 1) << 16) | (f.u8(o + 2) << 8) | f.u8(o + 3))
      }
    }
  }

  #findIpv4Start(): number {
    if (this.metadata.ipVersion === 4) return 0
    let node = 0
    for (let i = 0; i < 96 && node < this.metadata.nodeCount; i++) node = this.#record(node, 0)
    return node
  }
}

/** Offset of the last metadata marker, searched in the file's last 128 KiB. */
function findMetadataMarker(file: PagedFile): number {
  const from = Math.max(0, file.size - METADATA_MAX_BYTES)
  const tail = Buffer.from(file.bytes(from, file.size - from))
  const at = tail.lastIndexOf(METADATA_MARKER)
  if (at < 0)
    throw new Error(
      `${file.path}: not a MaxMind DB file: no metadata marker ("\\xAB\\xCD\\xEFMaxMind.com") in its last 128 KiB${file.size === 0 ? ' (the file is empty)' : ''}; truncated, or another format?`,
    )
  return from + at
}

function checkMetadata(path: string, raw: unknown): MmdbMetadata {
  const m = (raw ?? {}) as Record<string, unknown>
  const bad = (what: string) => new Error(`${path}: unsupported or corrupt metadata: ${what}`)
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad('not a map')
  if (m.binary_format_major_version !== 2)
    throw bad(`binary_format_major_version ${String(m.binary_format_major_version)} (2 is supported)`)
  const recordSize = m.record_size
  if (recordSize !== 24 && recordSize !== 28 && recordSize !== 32)
    throw bad(`record_size ${String(recordSize)} (24, 28 or 32)`)
  const ipVersion = m.ip_version
  if (ipVersion !== 4 && ipVersion !== 6) throw bad(`ip_version ${String(ipVersion)}`)
  const nodeCount = m.node_count
  if (typeof nodeCount !== 'number' || !Number.isInteger(nodeCount) || nodeCount <= 0)
    throw bad(`node_count ${String(nodeCount)}`)
  return {
    binaryFormatMajorVersion: 2,
    binaryFormatMinorVersion: Number(m.binary_format_minor_version ?? 0),
    buildEpoch: new Date(Number(m.build_epoch ?? 0) * 1000),
    databaseType: String(m.database_type ?? ''),
    ipVersion,
    nodeCount,
    recordSize,
    searchTreeSize: (nodeCount * recordSize) / 4,
  }
}

/** The 4 (IPv4) or 16 (IPv6) bytes of an address, or null when `ip` is not one. */
export function ipBytes(ip: string): Uint8Array | null {
  const version = isIP(ip)
  if (version === 4) return Uint8Array.from(ip.split('.'), Number)
  if (version !== 6) return null
  let text = ip.split('%')[0]
  const out = new Uint8Array(16)
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  let tail: number[] = []
  if (dotted) {
    tail = dotted.slice(1).map(Number)
    text = text.slice(0, dotted.index) + (text.slice(0, dotted.index).endsWith(':') ? '0:0' : '')
  }
  const [head, rest] = text.split('::') as [string, string | undefined]
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : [])
  const left = groups(head)
  const right = groups(rest)
  const words = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right]
  for (let i = 0; i < 8; i++) {
    out[i * 2] = words[i] >> 8
    out[i * 2 + 1] = words[i] & 0xff
  }
  if (dotted) out.set(tail, 12)
  return out
}
