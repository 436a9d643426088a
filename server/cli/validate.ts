/**
 * npm run validate — checks every definition; prints `file:line:col  /pointer  message` per error.
 * Optional argument: another definitions folder (e.g. a broken copy); default DEFINITIONS_DIR.
 * Beside the definitions themselves, the route → brand table of the repository the folder sits in
 * (docs/decisions/0100) must agree with the pages, in both directions.
 * Then the phone-rule coverage warnings the publish checks show (a rule that can never win, pages
 * falling through to a brand's default, said once per brand naming only pages changed in git):
 * printed, never failing the run. Last, when the working tree
 * differs from what a git-content server publishes, that it is not live yet and what to run
 * (docs/decisions/0618).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { LocatedJson } from '../../engine/definitions/locate'
import {
  type FallThrough,
  pagesByBrand,
  phoneCoverageWarnings,
  phoneRuleCoverage,
} from '../../engine/phone/phone-rule-coverage'
import { formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import type { DefinitionError } from '../../engine/snapshot/types'
import { loadConfig } from '../config'
import { toPosix } from '../content/read-definitions'
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
// The folder's own name: the warnings name files as definitions/…, whatever the folder is called.
const folder = toPosix(relative(repository, dir))
const inFolder = (file: string) => file.replace(/^definitions\//, `${folder}/`)
const changed = changedPageKeys(s, dir)
const warnings = phoneCoverageWarnings(s)
const fallThrough = phoneRuleCoverage(
  [...s.documents.phoneRule.values()],
  pagesByBrand(s.pages.values()),
).fallThrough
for (const w of warnings) {
  const file = resolve(repository, inFolder(w.file))
  const { line, column } = new LocatedJson(readFileSync(file, 'utf8')).positionOf(w.pointer)
  // Pages falling through to a brand's default: said once per brand, naming only the pages changed
  // here (the control center's phone-rule coverage lists every one).
  const f = w.pointer === '' ? fallThrough.find((x) => w.file.endsWith(`/${x.defaultRule}.json`)) : undefined
  const message = f ? shortFallThrough(f, changed) : w.message
  console.log(
    `warning: ${formatDefinitionError({ ...w, message, line, column, file: relative(process.cwd(), file) })}`,
  )
}
const others = Object.entries(s.documents)
  .map(([kind, docs]) => `, ${docs.size} ${kind}s`)
  .join('')
console.log(
  `ok: ${s.brands.size} brands, ${s.pages.size} pages, ${s.funnels.size} funnels, ${s.steps.size} steps${others} valid (${ms} ms, snapshot ${s.id})${warnings.length ? `; ${warnings.length} phone-rule warning${warnings.length === 1 ? '' : 's'} above` : ''}`,
)
/** One line for a brand's pages that fall through to its default, naming the ones changed here. */
function shortFallThrough(f: FallThrough, changedKeys: ReadonlySet<string>): string {
  const mine = f.pages.filter((p) => changedKeys.has(p))
  return `${f.pages.length} page${f.pages.length === 1 ? '' : 's'} of brand "${f.brand}" fall through to the default "${f.defaultRule}" (no page-specific rule)${mine.length ? `, among them ${mine.length === 1 ? 'the changed page' : 'the changed pages'} ${mine.join(', ')}` : ''}; the control center's Phone rules coverage lists them`
}

/** Keys of the pages whose files git sees as new or changed in the folder (none outside a git checkout). */
function changedPageKeys(snapshot: typeof s, folder: string): Set<string> {
  const r = spawnSync('git', ['status', '--porcelain', '-z', '--untracked-files=all', '--', '.'], {
    cwd: folder,
    encoding: 'utf8',
  })
  if (r.status !== 0) return new Set()
  const top = spawnSync('git', ['rev-parse', '--show-toplevel'], {
    cwd: folder,
    encoding: 'utf8',
  }).stdout.trim()
  const files = new Set(
    r.stdout
      .split('\0')
      .filter((e) => e.length > 3)
      .map((e) => resolve(top, e.slice(3))),
  )
  const keys = new Set<string>()
  for (const p of snapshot.pages.values())
    if (files.has(resolve(repository, inFolder(p.file)))) keys.add(p.key)
  return keys
}

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
