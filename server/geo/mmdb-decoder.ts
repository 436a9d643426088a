import type { PagedFile } from './paged-file'

/**
 * Decodes values of the MaxMind DB data section ("MaxMind DB File Format Specification" 2.0, "Data
 * Section" and "Output Data Section"): every type of the format, with the same JavaScript values as
 * mmdb-lib (maps → objects, uint64/uint128 → bigint, bytes → Buffer). Reads through a PagedFile, so
 * only the pages a value sits on are read.
 */
export class MmdbDecoder {
  /** The offset after the last value decoded. */
  #at = 0

  /** @param pointerBase offset pointers count from: the data section's start (the metadata's, for it) */
  constructor(
    private readonly file: PagedFile,
    private readonly pointerBase: number,
  ) {}

  /** The value at `offset` (a file offset). */
  decode(offset: number): unknown {
    this.#at = offset
    return this.#value(0)
  }

  #value(depth: number): unknown {
    if (depth > 512) throw this.#corrupt('values nested too deep')
    const f = this.file
    const ctrl = f.u8(this.#at++)
    let type = ctrl >> 5
    if (type === 1) {
      // Pointer: decode the value it points at, then carry on after the pointer itself.
      const target = this.#pointer(ctrl)
      const after = this.#at
      this.#at = target
      const value = this.#value(depth + 1)
      this.#at = after
      return value
    }
    if (type === 0) {
      type = 7 + f.u8(this.#at++)
      if (type < 8 || type > 15) throw this.#corrupt(`unknown extended type ${type}`)
    }
    let size = ctrl & 0x1f
    if (size >= 29) {
      const n = size - 28
      const b = f.bytes(this.#at, n)
      this.#at += n
      size = n === 1 ? 29 + b[0] : n === 2 ? 285 + b.readUInt16BE(0) : 65_821 + b.readUIntBE(0, 3)
    }
    switch (type) {
      case 2:
        return this.#take(size).toString('utf8')
      case 7: {
        const map: Record<string, unknown> = {}
        for (let i = 0; i < size; i++) {
          const key = this.#value(depth + 1)
          if (typeof key !== 'string') throw this.#corrupt('a map key that is not a string')
          const value = this.#value(depth + 1)
          if (key === '__proto__')
            Object.defineProperty(map, key, { value, enumerable: true, writable: true })
          else map[key] = value
        }
        return map
      }
      case 11: {
        const array = new Array<unknown>(size)
        for (let i = 0; i < size; i++) array[i] = this.#value(depth + 1)
        return array
      }
      case 5:
      case 6:
        if (size > 4) throw this.#corrupt(`an unsigned integer of ${size} bytes`)
        return size === 0 ? 0 : this.#take(size).readUIntBE(0, size)
      case 8:
        if (size > 4) throw this.#corrupt(`an int32 of ${size} bytes`)
        // Fewer than four bytes are zero-padded on the left, so they are never negative (as mmdb-lib).
        return size === 0 ? 0 : size < 4 ? this.#take(size).readUIntBE(0, size) : this.#take(4).readInt32BE(0)
      case 3:
        if (size !== 8) throw this.#corrupt(`a double of ${size} bytes`)
        return this.#take(8).readDoubleBE(0)
      case 15:
        if (size !== 4) throw this.#corrupt(`a float of ${size} bytes`)
        return this.#take(4).readFloatBE(0)
      case 9:
      case 10: {
        if (size > (type === 9 ? 8 : 16)) throw this.#corrupt(`an unsigned integer of ${size} bytes`)
        const b = this.#take(size)
        let n = 0n
        for (let i = 0; i < size; i++) n = (n << 8n) | BigInt(b[i])
        return n
      }
      case 4:
        return Buffer.from(this.#take(size))
      case 14:
        return size !== 0
      case 12:
      case 13:
        // Data cache container and end marker: writer-side types that never appear in a record.
        throw this.#corrupt(`a value of type ${type === 12 ? 'data cache container' : 'end marker'}`)
    }
    throw this.#corrupt(`unknown type ${type}`)
  }

  /** A pointer's target (001SSVVV and 1–4 more bytes); `#at` is just after the control byte. */
  #pointer(ctrl: number): number {
    const ss = (ctrl >> 3) & 3
    const b = this.#take(ss + 1)
    const v = ctrl & 7
    const value =
      ss === 0
        ? (v << 8) | b[0]
        : ss === 1
          ? ((v << 16) | b.readUInt16BE(0)) + 2048
          : ss === 2
            ? v * 0x1000000 + b.readUIntBE(0, 3) + 526_336
            : b.readUInt32BE(0)
    return this.pointerBase + value
  }

  /** The next `n` bytes (a view: decode at once). */
  #take(n: number): Buffer {
    const b = this.file.bytes(this.#at, n)
    this.#at += n
    return b
  }

  #corrupt(what: string): Error {
    return new Error(`${this.file.path}: ${what} at offset ${this.#at}: corrupt database?`)
  }
}
