/**
 * npm run bench -- validate: how long `npm run validate` spends on the whole catalogue — the first build
 * (schemas compiled) and warm rebuilds (what the dev server pays on each edit). Target: under a second.
 */
import { join } from 'node:path'
import { SnapshotStore } from '../../server/content/snapshot-store'

export default async function run(): Promise<void> {
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
  console.table([
    { what: `first build (${cold.pages} pages, schemas compiled)`, ms: Math.round(cold.ms) },
    { what: 'warm rebuild, median of 10', ms: Math.round(warm[5]) },
    { what: 'warm rebuild, slowest of 10', ms: Math.round(warm[9]) },
  ])
}
