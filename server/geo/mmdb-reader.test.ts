import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Reader } from 'mmdb-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seededRandom } from '../../engine/util/seeded-random'
import { ipv4Of } from '../../tests/fixtures/random-ips'
import { defaultGeoDatabases } from './geo-database'
import { ipBytes, MmdbReader } from './mmdb-reader'

const [IPV4_FILE, IPV6_FILE] = defaultGeoDatabases()

function randomIpv4(count: number, seed: number): string[] {
  const next = seededRandom(seed)
  return Array.from({ length: count }, () => {
    return ipv4Of(next())
  })
}

/** Random IPv6 addresses, most in /16s the regional registries hand out (elsewhere little is known). */
function randomIpv6(count: number, seed: number): string[] {
  const next = seededRandom(seed)
  const firsts = [0x2001, 0x2400, 0x2403, 0x2404, 0x2600, 0x2601, 0x2602, 0x2603, 0x2604, 0x2605, 0x2606]
  firsts.push(0x2607, 0x2620, 0x2800, 0x2804, 0x2a00, 0x2a01, 0x2a02, 0x2a03, 0x2a0e, 0x2c0f)
  return Array.from({ length: count }, (_, i) => {
    const words = Array.from({ length: 8 }, () => next() & 0xffff)
    words[0] = i % 10 === 0 ? next() & 0xffff : firsts[next() % firsts.length]
    return words.map((w) => w.toString(16)).join(':')
  })
}

/**
 * Random addresses the database knows: a random walk down its search tree (read straight from the
 * file's bytes, 24-bit records) that turns away from empty branches, the remaining bits random.
 */
function knownIpv6(file: string, count: number, seed: number): string[] {
  const db = readFileSync(file)
  const { nodeCount, recordSize } = new Reader(db).metadata
  expect(recordSize).toBe(24)
  const next = seededRandom(seed)
  return Array.from({ length: count }, () => {
    const bits: number[] = []
    let node = 0
    while (node < nodeCount && bits.length < 128) {
      const left = db.readUIntBE(node * 6, 3)
      const right = db.readUIntBE(node * 6 + 3, 3)
      const bit = left === nodeCount ? 1 : right === nodeCount ? 0 : next() & 1
      bits.push(bit)
      node = bit ? right : left
    }
    while (bits.length < 128) bits.push(next() & 1)
    const words = Array.from({ length: 8 }, (_, w) =>
      Number.parseInt(bits.slice(w * 16, w * 16 + 16).join(''), 2),
    )
    return words.map((w) => w.toString(16)).join(':')
  })
}

const EDGE_CASES = [
  '0.0.0.0',
  '0.255.255.255',
  '1.0.0.0',
  '1.1.1.1',
  '8.8.8.8',
  '10.0.0.1',
  '100.64.0.1',
  '127.0.0.1',
  '169.254.1.1',
  '172.16.0.1',
  '192.168.1.1',
  '223.255.255.255',
  '224.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '::8.8.8.8',
  '::ffff:8.8.8.8',
  '::ffff:73.162.0.1',
  '::ffff:0808:0808',
  '64:ff9b::8.8.8.8',
  '2001:db8::1',
  '2001:4860:4860::8888',
  '2002:808:808::1',
  '2606:4700:4700::1111',
  'fe80::1',
  'fe80::1%eth0',
  'fd00::1',
  'ff02::1',
  'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
]

/** Values as text, bigints included, for a readable diff. */
const text = (v: unknown) => JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? `${x}n` : x))

describe('MmdbReader against mmdb-lib, on the bundled GeoLite2 city databases', () => {
  for (const [name, file, ips] of [
    ['IPv4', IPV4_FILE, [...randomIpv4(3000, 19), ...EDGE_CASES.filter((ip) => !ip.includes(':'))]],
    [
      'IPv6',
      IPV6_FILE,
      [...knownIpv6(IPV6_FILE, 2500, 24), ...randomIpv6(1000, 20), ...randomIpv4(500, 21), ...EDGE_CASES],
    ],
  ] as const) {
    it(`${name} file: the same record for ${ips.length} addresses`, () => {
      const reference = new Reader(readFileSync(file))
      const reader = new MmdbReader(file)
      try {
        let found = 0
        const differences: string[] = []
        for (const ip of ips) {
          const want = text(reference.get(ip))
          const got = text(reader.get(ip))
          if (got !== want) differences.push(`${ip}: ${got} ≠ ${want}`)
          if (want !== 'null') found++
        }
        expect(differences).toEqual([])
        // The comparison means something only if most addresses have a record.
        expect(found).toBeGreaterThan(ips.length / 3)
        expect(reader.metadata).toMatchObject({
          ipVersion: reference.metadata.ipVersion,
          nodeCount: reference.metadata.nodeCount,
          recordSize: reference.metadata.recordSize,
          searchTreeSize: reference.metadata.searchTreeSize,
          databaseType: reference.metadata.databaseType,
        })
      } finally {
        reader.close()
      }
    })
  }

  it('an IPv6 address in the IPv4-only file is an error naming the file (mmdb-lib answers for its first 32 bits)', () => {
    const reader = new MmdbReader(IPV4_FILE)
    try {
      expect(() => reader.get('2001:4860:4860::8888')).toThrow(IPV4_FILE)
      expect(() => reader.get('2001:4860:4860::8888')).toThrow(/IPv4-only database/)
      expect(() => reader.get('not an ip')).toThrow(/not an IP address/)
    } finally {
      reader.close()
    }
  })
})

describe('the page cache', () => {
  it('never holds more than its bound, however many lookups', () => {
    const reader = new MmdbReader(IPV4_FILE, { cacheBytes: 64 * 1024 })
    try {
      expect(reader.cache.maxBytes).toBe(64 * 1024)
      let most = 0
      for (const ip of randomIpv4(3000, 22)) {
        reader.get(ip)
        most = Math.max(most, reader.cache.bytes)
      }
      expect(most).toBe(64 * 1024)
      // It was full and kept evicting: far more pages were read than it holds.
      expect(reader.cache.misses).toBeGreaterThan(1000)
      expect(reader.cache.hits).toBeGreaterThan(reader.cache.misses)
    } finally {
      reader.close()
    }
  })

  it('a bound below one page keeps one page, and answers stay right', () => {
    const reference = new Reader(readFileSync(IPV6_FILE))
    const reader = new MmdbReader(IPV6_FILE, { cacheBytes: 1, pageSize: 64 })
    try {
      for (const ip of randomIpv6(200, 23)) {
        expect(text(reader.get(ip))).toBe(text(reference.get(ip)))
        expect(reader.cache.bytes).toBeLessThanOrEqual(64)
      }
    } finally {
      reader.close()
    }
  })
})

describe('files that are not a MaxMind DB', () => {
  let dir: string
  let metadataTail: Buffer
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fw-mmdb-'))
    // The IPv6 file's metadata: the marker and what follows it.
    const size = statSync(IPV6_FILE).size
    const tail = Buffer.alloc(4096)
    const fd = openSync(IPV6_FILE, 'r')
    readSync(fd, tail, 0, tail.length, size - tail.length)
    closeSync(fd)
    metadataTail = tail.subarray(tail.lastIndexOf(Buffer.from('abcdef4d61784d696e642e636f6d', 'hex')))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const write = (name: string, content: Buffer | string) => {
    const file = join(dir, name)
    writeFileSync(file, content)
    return file
  }
  const head = (bytes: number) => readFileSync(IPV6_FILE).subarray(0, bytes)

  it('a text file, an empty file, a file cut short: no metadata marker, and the file named', () => {
    for (const [name, content] of [
      ['text.mmdb', 'city,zip\nAustin,78701\n'],
      ['empty.mmdb', ''],
      ['truncated.mmdb', head(1024 * 1024)],
    ] as const) {
      const file = write(name, content)
      expect(() => new MmdbReader(file)).toThrow(`${file}: not a MaxMind DB file: no metadata marker`)
    }
  })

  it('a damaged metadata marker', () => {
    const tail = Buffer.from(metadataTail)
    tail[5] ^= 0xff
    const file = write('no-marker.mmdb', Buffer.concat([head(64 * 1024), tail]))
    expect(() => new MmdbReader(file)).toThrow(`${file}: not a MaxMind DB file`)
  })

  it('metadata kept but the search tree and data cut out: truncated', () => {
    const file = write('cut.mmdb', Buffer.concat([head(64 * 1024), metadataTail]))
    expect(() => new MmdbReader(file)).toThrow(
      new RegExp(`^${file}: the metadata says the search tree is \\d+ bytes.*truncated\\?$`),
    )
  })

  it('garbage after the marker: unreadable metadata', () => {
    const file = write(
      'bad-metadata.mmdb',
      Buffer.concat([head(1024), metadataTail.subarray(0, 14), Buffer.from([0xff, 0xff])]),
    )
    expect(() => new MmdbReader(file)).toThrow(`${file}: `)
  })

  it('a missing file', () => {
    const file = join(dir, 'missing.mmdb')
    expect(() => new MmdbReader(file)).toThrow(file)
  })
})

describe('every data type and record size, on a database written here', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fw-mmdb-types-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const record: Record<string, Value> = {
    string: 'Zürich',
    long: 'x'.repeat(300),
    longer: 'y'.repeat(70_000),
    double: ['f64', -12.5],
    float: ['f32', 1.5],
    uint16: ['u16', 65535],
    uint32: ['u32', 4_294_967_295],
    int32: ['i32', -7],
    short_int32: ['i32', 300],
    uint64: ['u64', 18_446_744_073_709_551_615n],
    uint128: ['u128', 2n ** 127n + 5n],
    true: ['bool', true],
    false: ['bool', false],
    bytes: ['bytes', Buffer.from([0, 1, 2, 255])],
    array: ['array', ['a', ['u32', 1], ['array', []]]],
    map: { nested: { deeper: 'yes' } },
    pointed: ['ptr', 0],
  }
  for (const recordSize of [24, 28, 32] as const)
    for (const ipVersion of [4, 6] as const)
      it(`record size ${recordSize}, IPv${ipVersion} tree`, () => {
        const file = join(dir, `types-${recordSize}-${ipVersion}.mmdb`)
        writeFileSync(file, writeMmdb(recordSize, ipVersion, record))
        const reference = new Reader(readFileSync(file))
        const reader = new MmdbReader(file, { cacheBytes: 8192, pageSize: 1024 })
        try {
          const ips = ['1.2.3.4', '1.255.255.255', '2.0.0.0', '0.0.0.0']
          if (ipVersion === 6) ips.push('::1.2.3.4', '::ffff:1.2.3.4', '2001:db8::1')
          for (const ip of ips) expect(text(reader.get(ip)), ip).toBe(text(reference.get(ip)))
          expect(reader.get('1.2.3.4')).toMatchObject({ string: 'Zürich', int32: -7, pointed: 'shared' })
        } finally {
          reader.close()
        }
      })
})

describe('ipBytes', () => {
  it('parses both families, embedded IPv4 and zones', () => {
    expect([...ipBytes('1.2.3.4')!]).toEqual([1, 2, 3, 4])
    expect([...ipBytes('::ffff:1.2.3.4')!]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4])
    expect([...ipBytes('1:2:3:4:5:6:7.8.9.10')!]).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 7, 8, 9, 10])
    expect([...ipBytes('fe80::1%eth0')!]).toEqual([0xfe, 0x80, ...new Array(13).fill(0), 1])
    expect([...ipBytes('2001:db8::')!]).toEqual([0x20, 0x01, 0x0d, 0xb8, ...new Array(12).fill(0)])
    expect(ipBytes('1.2.3')).toBeNull()
    expect(ipBytes('example.com')).toBeNull()
  })
})

/** A string, a map, or a tagged value: `['u32', 1]`, `['array', [...]]`, `['ptr', offset]`… */
type Value = string | { [key: string]: Value } | readonly [string, unknown]

/**
 * A minimal MaxMind DB writer for the test: one network, 1.0.0.0/8 (::1.0.0.0/104 in an IPv6 tree),
 * whose record is `record`, after a string "shared" at data offset 0 that `['ptr', 0]` points at.
 * With 28- and 32-bit records, 16 MiB of unused data comes before the record, so the pointer to it
 * needs more than 24 bits.
 */
function writeMmdb(recordSize: 24 | 28 | 32, ipVersion: 4 | 6, record: Record<string, Value>): Buffer {
  const prefix = ipVersion === 4 ? '00000001' : `${'0'.repeat(96)}00000001`
  const nodeCount = prefix.length
  const shared = encode('shared')
  const padding = Buffer.alloc(recordSize > 24 ? 2 ** 24 : 0)
  const data = Buffer.concat([shared, padding, encode(record)])
  const tree = Buffer.alloc((nodeCount * recordSize) / 4)
  for (let node = 0; node < nodeCount; node++) {
    const next = node + 1 < nodeCount ? node + 1 : nodeCount + 16 + shared.length + padding.length
    const bit = prefix[node] === '1' ? 1 : 0
    writeNode(tree, recordSize, node, bit ? nodeCount : next, bit ? next : nodeCount)
  }
  const metadata = encode({
    binary_format_major_version: ['u16', 2],
    binary_format_minor_version: ['u16', 0],
    build_epoch: ['u64', 1_700_000_000n],
    database_type: 'Test-Types',
    description: { en: 'every type' },
    ip_version: ['u16', ipVersion],
    languages: ['array', ['en']],
    node_count: ['u32', nodeCount],
    record_size: ['u16', recordSize],
  })
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    data,
    Buffer.from('abcdef4d61784d696e642e636f6d', 'hex'),
    metadata,
  ])
}

function writeNode(tree: Buffer, recordSize: number, node: number, left: number, right: number) {
  const at = (node * recordSize) / 4
  if (recordSize === 24) {
    tree.writeUIntBE(left, at, 3)
    tree.writeUIntBE(right, at + 3, 3)
  } else if (recordSize === 28) {
    tree.writeUIntBE(left & 0xffffff, at, 3)
    tree[at + 3] = ((left >>> 24) << 4) | (right >>> 24)
    tree.writeUIntBE(right & 0xffffff, at + 4, 3)
  } else {
    tree.writeUInt32BE(left, at)
    tree.writeUInt32BE(right, at + 4)
  }
}

function control(type: number, size: number): Buffer {
  const ext = type > 7 ? [type - 7] : []
  const first = (type > 7 ? 0 : type) << 5
  if (size < 29) return Buffer.from([first | size, ...ext])
  if (size < 285) return Buffer.from([first | 29, ...ext, size - 29])
  if (size < 65_821) return Buffer.from([first | 30, ...ext, (size - 285) >> 8, (size - 285) & 255])
  const s = size - 65_821
  return Buffer.from([first | 31, ...ext, s >> 16, (s >> 8) & 255, s & 255])
}

function uint(n: bigint): Buffer {
  const bytes: number[] = []
  for (let v = n; v > 0n; v >>= 8n) bytes.unshift(Number(v & 255n))
  return Buffer.from(bytes)
}

const isTagged = (v: Value): v is readonly [string, unknown] => Array.isArray(v)

function encode(value: Value): Buffer {
  if (typeof value === 'string') {
    const b = Buffer.from(value)
    return Buffer.concat([control(2, b.length), b])
  }
  if (!isTagged(value)) {
    const parts = Object.entries(value).flatMap(([k, v]) => [encode(k), encode(v)])
    return Buffer.concat([control(7, Object.keys(value).length), ...parts])
  }
  const [tag, v] = value
  switch (tag) {
    case 'ptr':
      return Buffer.from([0x20, v as number])
    case 'f64': {
      const b = Buffer.alloc(8)
      b.writeDoubleBE(v as number)
      return Buffer.concat([control(3, 8), b])
    }
    case 'f32': {
      const b = Buffer.alloc(4)
      b.writeFloatBE(v as number)
      return Buffer.concat([control(15, 4), b])
    }
    case 'i32': {
      const n = v as number
      const b = n < 0 ? Buffer.from(new Uint8Array(new Int32Array([n]).buffer).reverse()) : uint(BigInt(n))
      return Buffer.concat([control(8, b.length), b])
    }
    case 'u16':
    case 'u32':
    case 'u64':
    case 'u128': {
      const b = uint(BigInt(v as number | bigint))
      return Buffer.concat([control({ u16: 5, u32: 6, u64: 9, u128: 10 }[tag], b.length), b])
    }
    case 'bool':
      return control(14, v ? 1 : 0)
    case 'bytes':
      return Buffer.concat([control(4, (v as Buffer).length), v as Buffer])
    case 'array':
      return Buffer.concat([control(11, (v as Value[]).length), ...(v as Value[]).map(encode)])
  }
  throw new Error(`unknown tag ${tag}`)
}
