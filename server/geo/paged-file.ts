import { closeSync, fstatSync, openSync, readSync } from 'node:fs'

export interface PagedFileOptions {
  /** Bytes of file pages kept in memory at most (least recently used out first). Default 1 MiB. */
  cacheBytes?: number
  /** Bytes read at a time; a power of two. Default 4 KiB. */
  pageSize?: number
}

export const DEFAULT_PAGE_CACHE_BYTES = 1024 * 1024
const DEFAULT_PAGE_SIZE = 4096

/**
 * A file read with positioned reads, page by page, through a bounded cache of pages: the file stays
 * on disk (the kernel's page cache, which is not this process's RSS, keeps it warm) and at most
 * `cacheBytes` of it live in this process. Pages are evicted least recently used first, approximated
 * by the clock (second-chance) algorithm: a hit only sets a flag, so hot pages cost no bookkeeping.
 * Reads are synchronous: a page miss is one `pread` of a few KB, normally from the kernel's cache, and
 * a lookup never interleaves with another between awaits.
 */
export class PagedFile {
  readonly size: number
  readonly pageSize: number
  readonly maxPages: number
  /** Page number → slot. */
  readonly #slotOf = new Map<number, number>()
  /** Per slot: its page's buffer, its page number, and whether it was used since the hand passed. */
  readonly #buffers: Buffer[] = []
  readonly #pageOf: number[] = []
  readonly #used: Uint8Array
  #hand = 0
  #fd: number | null
  /** The page read last: consecutive reads of one page skip the lookup. */
  #lastNo = -1
  #last: Buffer = Buffer.alloc(0)
  #misses = 0
  #hits = 0

  constructor(
    readonly path: string,
    options: PagedFileOptions = {},
  ) {
    const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE
    if (!Number.isInteger(pageSize) || pageSize < 16 || (pageSize & (pageSize - 1)) !== 0)
      throw new Error(`page size must be a power of two ≥ 16, got ${pageSize}`)
    this.pageSize = pageSize
    this.maxPages = Math.max(1, Math.floor((options.cacheBytes ?? DEFAULT_PAGE_CACHE_BYTES) / pageSize))
    this.#used = new Uint8Array(this.maxPages)
    this.#fd = openSync(path, 'r')
    try {
      this.size = fstatSync(this.#fd).size
    } catch (e) {
      this.close()
      throw e
    }
  }

  /** Bytes of pages held now; never more than `maxPages × pageSize`. */
  get cachedBytes(): number {
    return this.#buffers.length * this.pageSize
  }

  get stats(): { pages: number; hits: number; misses: number } {
    return { pages: this.#buffers.length, hits: this.#hits, misses: this.#misses }
  }

  /** The byte at `offset`. */
  u8(offset: number): number {
    const no = Math.floor(offset / this.pageSize)
    const page = no === this.#lastNo ? this.#last : this.#page(no, offset)
    return page[offset - no * this.pageSize]
  }

  /**
   * `length` bytes from `offset`. Within one page this is a view of the cached page, valid only
   * until the next read: decode it at once, or copy it.
   */
  bytes(offset: number, length: number): Buffer {
    if (length === 0) return Buffer.alloc(0)
    if (offset + length > this.size) this.#pastEnd(offset + length - 1)
    const no = Math.floor(offset / this.pageSize)
    const start = offset - no * this.pageSize
    if (start + length <= this.pageSize) {
      const page = no === this.#lastNo ? this.#last : this.#page(no, offset)
      return page.subarray(start, start + length)
    }
    const out = Buffer.allocUnsafe(length)
    let done = 0
    while (done < length) {
      const at = offset + done
      const n = Math.floor(at / this.pageSize)
      const from = at - n * this.pageSize
      const take = Math.min(this.pageSize - from, length - done)
      const page = n === this.#lastNo ? this.#last : this.#page(n, at)
      page.copy(out, done, from, from + take)
      done += take
    }
    return out
  }

  close(): void {
    if (this.#fd !== null) closeSync(this.#fd)
    this.#fd = null
    this.#slotOf.clear()
    this.#buffers.length = 0
    this.#pageOf.length = 0
    this.#lastNo = -1
    this.#last = Buffer.alloc(0)
  }

  /** Page `no` from the cache, or read into a free slot or the one the clock hand evicts. */
  #page(no: number, offset: number): Buffer {
    if (offset < 0 || offset >= this.size) this.#pastEnd(offset)
    let slot = this.#slotOf.get(no)
    if (slot !== undefined) this.#hits++
    else {
      this.#misses++
      if (this.#fd === null) throw new Error(`${this.path}: read after close`)
      if (this.#buffers.length < this.maxPages) {
        slot = this.#buffers.length
        this.#buffers.push(Buffer.allocUnsafeSlow(this.pageSize))
        this.#pageOf.push(-1)
      } else {
        while (this.#used[this.#hand]) {
          this.#used[this.#hand] = 0
          this.#hand = (this.#hand + 1) % this.maxPages
        }
        slot = this.#hand
        this.#hand = (this.#hand + 1) % this.maxPages
        this.#slotOf.delete(this.#pageOf[slot])
        this.#pageOf[slot] = -1
        if (this.#buffers[slot] === this.#last) this.#lastNo = -1
      }
      const want = Math.min(this.pageSize, this.size - no * this.pageSize)
      const got = readSync(this.#fd, this.#buffers[slot], 0, want, no * this.pageSize)
      if (got < want) throw new Error(`${this.path}: short read at ${no * this.pageSize} (file changed?)`)
      this.#pageOf[slot] = no
      this.#slotOf.set(no, slot)
    }
    this.#used[slot] = 1
    this.#lastNo = no
    this.#last = this.#buffers[slot]
    return this.#last
  }

  #pastEnd(offset: number): never {
    throw new Error(
      `${this.path}: offset ${offset} is outside the file (${this.size} bytes): corrupt database?`,
    )
  }
}
