/**
 * npm run validate — checks every definition; prints `file:line:col  /pointer  message` per error.
 * Optional argument: another definitions folder (e.g. a broken copy).
 */
import { relative, resolve } from 'node:path'
import { formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import { SnapshotStore } from '../content/snapshot-store'

const projectRoot = resolve(import.meta.dirname, '..', '..')
const dir = resolve(process.cwd(), process.argv[2] ?? resolve(projectRoot, 'definitions'))
const started = performance.now()
// Paths are printed relative to the current directory, so editors can open them.
const result = SnapshotStore.build(dir, resolve(dir, '..'), projectRoot)
const ms = Math.round(performance.now() - started)
if (!result.ok) {
  for (const e of result.errors) {
    console.log(formatDefinitionError({ ...e, file: relative(process.cwd(), resolve(dir, '..', e.file)) }))
  }
  console.log(
    `\n${result.errors.length} error${result.errors.length === 1 ? '' : 's'} in ${relative(process.cwd(), dir) || '.'} (${ms} ms)`,
  )
  process.exit(1)
}
const s = result.snapshot
const others = Object.entries(s.documents)
  .map(([kind, docs]) => `, ${docs.size} ${kind}s`)
  .join('')
console.log(
  `ok: ${s.brands.size} brands, ${s.pages.size} pages, ${s.funnels.size} funnels, ${s.steps.size} steps${others} valid (${ms} ms, snapshot ${s.id})`,
)
