/**
 * npm run bench -- validate: how long `npm run validate` spends on the whole catalogue — the first build
 * (schemas compiled) and warm rebuilds (what the dev server pays on each edit). Target: under a second.
 */
import { join } from 'node:path'
import { SnapshotStore } from '../../server/content/snapshot-store'
import type { BenchTargets } from './targets'

/** The target: `npm run validate`'s whole-catalogue build under a second. */
const TARGET_MS = 1000

export default async function run(targets: BenchTargets): Promise<void> {
  const root = join(import.meta.dirname, '..', '..')
  const dir = join(root, 'definitions')
  const time = () => {
    const t = performance.now()
    const r = SnapshotStore.build(dir, root)
    if (!r.ok) throw new Error('catalogue does not validate')
    return { ms: performance.now() - t, pages: r.snapshot.pages.size }
  }
  const cold = time()
  const warm = Array.from({ length: 10 }, time)
    .map((r) => r.ms)
    .sort((a, b) => a - b)
  const first = `first build (${cold.pages} pages, schemas compiled)`
  console.table([
    {
      what: first,
      ms: Math.round(cold.ms),
      target: `≤ ${TARGET_MS}`,
      met: targets.check(first, `${Math.round(cold.ms)} ms`, `≤ ${TARGET_MS} ms`, cold.ms <= TARGET_MS),
    },
    { what: 'warm rebuild, median of 10', ms: Math.round(warm[5]) },
    { what: 'warm rebuild, slowest of 10', ms: Math.round(warm[9]) },
  ])
}
