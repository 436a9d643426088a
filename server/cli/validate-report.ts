/**
 * What `npm run validate` prints (server/cli/validate.ts), as lines, and whether the definitions
 * pass: every definition error as `file:line:col  /pointer  message` and their count; else the
 * phone-rule coverage warnings and the summary, and for the project's own definitions whether they
 * are live yet (docs/decisions/0618). Paths are relative to `cwd`, so editors can open them.
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

export function validateReport(
  dir: string,
  opts: { cwd: string; projectDefinitions: boolean },
): { ok: boolean; lines: string[] } {
  const { cwd } = opts
  const lines: string[] = []
  const repository = resolve(dir, '..')
  const started = performance.now()
  const result = SnapshotStore.build(dir, repository, projectRoot)
  const errors: DefinitionError[] = result.ok ? checkRouteMatrix(result.snapshot, repository) : result.errors
  const ms = Math.round(performance.now() - started)
  if (errors.length) {
    for (const e of errors)
      lines.push(formatDefinitionError({ ...e, file: relative(cwd, resolve(repository, e.file)) }))
    lines.push(
      '',
      `${errors.length} error${errors.length === 1 ? '' : 's'} in ${relative(cwd, dir) || '.'} (${ms} ms)`,
    )
    return { ok: false, lines }
  }
  if (!result.ok) return { ok: false, lines }
  const s = result.snapshot
  // The folder's own name: the warnings name files as definitions/…, whatever the folder is called.
  const folder = toPosix(relative(repository, dir))
  const inFolder = (file: string) => file.replace(/^definitions\//, `${folder}/`)
  const changed = changedPageKeys(s, dir, repository, inFolder)
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
    const f =
      w.pointer === '' ? fallThrough.find((x) => w.file.endsWith(`/${x.defaultRule}.json`)) : undefined
    const message = f ? shortFallThrough(f, changed) : w.message
    lines.push(
      `warning: ${formatDefinitionError({ ...w, message, line, column, file: relative(cwd, file) })}`,
    )
  }
  const others = Object.entries(s.documents)
    .map(([kind, docs]) => `, ${docs.size} ${kind}s`)
    .join('')
  lines.push(
    `ok: ${s.brands.size} brands, ${s.pages.size} pages, ${s.funnels.size} funnels, ${s.steps.size} steps${others} valid (${ms} ms, snapshot ${s.id})${warnings.length ? `; ${warnings.length} phone-rule warning${warnings.length === 1 ? '' : 's'} above` : ''}`,
  )
  // The project's own definitions only: another folder is not what `content -- import` would take.
  if (opts.projectDefinitions) {
    try {
      lines.push(...notLiveYet({ ...loadConfig(), definitionsDir: dir }))
    } catch {
      // A configuration the server would refuse: nothing to compare with.
    }
  }
  return { ok: true, lines }
}

/** One line for a brand's pages that fall through to its default, naming the ones changed here. */
function shortFallThrough(f: FallThrough, changedKeys: ReadonlySet<string>): string {
  const mine = f.pages.filter((p) => changedKeys.has(p))
  return `${f.pages.length} page${f.pages.length === 1 ? '' : 's'} of brand "${f.brand}" fall through to the default "${f.defaultRule}" (no page-specific rule)${mine.length ? `, among them ${mine.length === 1 ? 'the changed page' : 'the changed pages'} ${mine.join(', ')}` : ''}; the control center's Phone rules coverage lists them`
}

/** Keys of the pages whose files git sees as new or changed in the folder (none outside a git checkout). */
function changedPageKeys(
  snapshot: { pages: ReadonlyMap<string, { key: string; file: string }> },
  folder: string,
  repository: string,
  inFolder: (file: string) => string,
): Set<string> {
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
