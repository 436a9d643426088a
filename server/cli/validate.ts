/**
 * npm run validate — checks every definition; prints `file:line:col  /pointer  message` per error.
 * Optional argument: another definitions folder (e.g. a broken copy); default DEFINITIONS_DIR.
 * Beside the definitions themselves, the route → brand table of the repository the folder sits in
 * (docs/decisions/0100) must agree with the pages, in both directions.
 * Then the phone-rule coverage warnings the publish checks show (a rule that can never win, pages
 * falling through to a brand's default): printed, never failing the run. Last, when the working tree
 * differs from what a git-content server publishes, that it is not live yet and what to run
 * (docs/decisions/0618).
 */
import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { LocatedJson } from '../../engine/definitions/locate'
import { phoneCoverageWarnings } from '../../engine/phone/phone-rule-coverage'
import { formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import type { DefinitionError } from '../../engine/snapshot/types'
import { loadConfig } from '../config'
import { checkRouteMatrix } from '../content/route-matrix'
import { SnapshotStore } from '../content/snapshot-store'
import { notLiveYet } from '../runtime/not-live-yet'

const projectRoot = resolve(import.meta.dirname, '..', '..')
// The folder given, else the server's (DEFINITIONS_DIR, relative to the project, default definitions/).
const dir = process.argv[2]
  ? resolve(process.cwd(), process.argv[2])
  : resolve(projectRoot, process.env.DEFINITIONS_DIR?.trim() || 'definitions')
const repository = resolve(dir, '..')
const started = performance.now()
const result = SnapshotStore.build(dir, repository, projectRoot)
const errors: DefinitionError[] = result.ok ? checkRouteMatrix(result.snapshot, repository) : result.errors
const ms = Math.round(performance.now() - started)
if (errors.length) {
  // Paths are printed relative to the current directory, so editors can open them.
  for (const e of errors)
    console.log(formatDefinitionError({ ...e, file: relative(process.cwd(), resolve(repository, e.file)) }))
  console.log(
    `\n${errors.length} error${errors.length === 1 ? '' : 's'} in ${relative(process.cwd(), dir) || '.'} (${ms} ms)`,
  )
  process.exit(1)
}
if (!result.ok) process.exit(1)
const s = result.snapshot
const warnings = phoneCoverageWarnings(s)
for (const w of warnings) {
  const file = resolve(repository, w.file)
  const { line, column } = new LocatedJson(readFileSync(file, 'utf8')).positionOf(w.pointer)
  console.log(
    `warning: ${formatDefinitionError({ ...w, line, column, file: relative(process.cwd(), file) })}`,
  )
}
const others = Object.entries(s.documents)
  .map(([kind, docs]) => `, ${docs.size} ${kind}s`)
  .join('')
console.log(
  `ok: ${s.brands.size} brands, ${s.pages.size} pages, ${s.funnels.size} funnels, ${s.steps.size} steps${others} valid (${ms} ms, snapshot ${s.id})${warnings.length ? `; ${warnings.length} phone-rule warning${warnings.length === 1 ? '' : 's'} above` : ''}`,
)
// The project's own definitions only: another folder is not what `content -- import` would take.
if (process.argv[2] === undefined) {
  let lines: string[] = []
  try {
    lines = notLiveYet({ ...loadConfig(), definitionsDir: dir })
  } catch {
    // A configuration the server would refuse: nothing to compare with.
  }
  for (const line of lines) console.log(line)
}
