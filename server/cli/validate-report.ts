/**
 * What `npm run validate` prints (server/cli/validate.ts), as lines, and whether the definitions
 * pass: every definition error as `file:line:col  /pointer  message` and their count; else the
 * phone-rule coverage warnings and the summary, and for the project's own definitions whether they
 * are live yet (docs/decisions/0618). Paths are relative to `cwd`, so editors can open them.
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
  const warnings = phoneCoverageWarnings(s)
  for (const w of warnings) {
    const file = resolve(repository, w.file)
    const { line, column } = new LocatedJson(readFileSync(file, 'utf8')).positionOf(w.pointer)
    lines.push(`warning: ${formatDefinitionError({ ...w, line, column, file: relative(cwd, file) })}`)
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
