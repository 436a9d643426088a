/**
 * npm run bench -- geo: IP lookups per second in the bundled GeoLite2 city files, side by side —
 * our reader (server/geo/mmdb-reader.ts: the file stays on disk, positioned reads through a bounded
 * page cache; decision 0510) against mmdb-lib, the reader maxmind wraps, which holds the whole file in
 * memory (with and without maxmind's 10,000-record cache). And the memory each holds.
 */
import { readFileSync, statSync } from 'node:fs'
import { Reader } from 'mmdb-lib'
import { seededRandom } from '../../engine/util/seeded-random'
import { defaultGeoDatabases } from '../../server/geo/geo-database'
import { MmdbReader } from '../../server/geo/mmdb-reader'
import { ipv6From, publicIp } from '../../tests/fixtures/random-ips'

const ROUNDS = 3

function publicIpv4(count: number, seed: number): string[] {
  const next = seededRandom(seed)
  return Array.from({ length: count }, () => publicIp(next))
}

function publicIpv6(count: number, seed: number): string[] {
  const next = seededRandom(seed)
  return Array.from({ length: count }, () => ipv6From(next))
}

/** maxmind's record cache (tiny-lru, 10,000 entries) in a few lines: least recently set out first. */
function recordCache(max: number) {
  const map = new Map<number, unknown>()
  return {
    get: (k: number) => map.get(k),
    set: (k: number, v: unknown) => {
      if (map.size >= max) map.delete(map.keys().next().value as number)
      map.set(k, v)
    },
  }
}

type Get = (ip: string) => unknown

export default async function run(): Promise<void> {
  const [ipv4File, ipv6File] = defaultGeoDatabases()
  const workloads = [
    { name: 'IPv4, 50,000 different', file: ipv4File, ips: publicIpv4(50_000, 1) },
    {
      name: 'IPv4, 2,000 visitors × 25',
      file: ipv4File,
      ips: Array.from({ length: 25 }, () => publicIpv4(2000, 2)).flat(),
    },
    { name: 'IPv6, 50,000 different', file: ipv6File, ips: publicIpv6(50_000, 3) },
  ]
  const rows: Record<string, string | number>[] = []
  for (const w of workloads) {
    const t0 = performance.now()
    const ours = new MmdbReader(w.file)
    const oursOpenMs = performance.now() - t0
    const big = new MmdbReader(w.file, { cacheBytes: 8 * 1024 * 1024 })
    const t1 = performance.now()
    const whole = new Reader(readFileSync(w.file))
    const wholeOpenMs = performance.now() - t1
    const cached = new Reader(readFileSync(w.file), { cache: recordCache(10_000) })
    const readers: { name: string; get: Get; memory: () => number; openMs?: number }[] = [
      {
        name: 'ours, 1 MiB page cache',
        get: (ip) => ours.get(ip),
        memory: () => ours.cache.bytes,
        openMs: oursOpenMs,
      },
      { name: 'ours, 8 MiB page cache', get: (ip) => big.get(ip), memory: () => big.cache.bytes },
      {
        name: 'mmdb-lib, whole file',
        get: (ip) => whole.get(ip),
        memory: () => statSync(w.file).size,
        openMs: wholeOpenMs,
      },
      {
        name: 'mmdb-lib + record cache (maxmind)',
        get: (ip) => cached.get(ip),
        memory: () => statSync(w.file).size,
      },
    ]
    const best = new Map<string, number>()
    for (let round = 0; round < ROUNDS; round++)
      for (const r of readers) {
        const t = performance.now()
        for (const ip of w.ips) r.get(ip)
        const perS = w.ips.length / ((performance.now() - t) / 1000)
        best.set(r.name, Math.max(best.get(r.name) ?? 0, perS))
      }
    for (const r of readers)
      rows.push({
        workload: w.name,
        reader: r.name,
        'lookups/s': Math.round(best.get(r.name)!),
        'µs/lookup': Number((1e6 / best.get(r.name)!).toFixed(1)),
        'file bytes in memory (MB)': Number((r.memory() / 1024 / 1024).toFixed(1)),
        'open ms': r.openMs === undefined ? '' : Math.round(r.openMs),
      })
    ours.close()
    big.close()
  }
  console.log(`best of ${ROUNDS} rounds each; mmdb-lib's decoded-record cache memory is not counted`)
  console.table(rows)
}
