/**
 * Each folder in tests/fixtures/broken-definitions/<case>/ holds definition files laid over the
 * repository's catalogue and an `expected.txt` with the exact `file:line:col  /pointer  message` lines
 * validation must print — nothing more, nothing less.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildSnapshot, formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import type { DefinitionFile } from '../../engine/snapshot/types'
import { publicAssetExists, readDefinitionFiles, toPosix } from '../../server/content/read-definitions'

const root = join(import.meta.dirname, '..', '..')
const fixtures = join(root, 'tests', 'fixtures', 'broken-definitions')
const cases = readdirSync(fixtures).sort()

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full) : [full]
  })
}

/** The repository's definitions with the case's files added (or replacing files of the same path). */
function overlay(caseName: string): DefinitionFile[] {
  const caseDir = join(fixtures, caseName)
  const extra = filesUnder(join(caseDir, 'definitions')).map((full) => ({
    path: toPosix(relative(caseDir, full)),
    text: readFileSync(full, 'utf8'),
  }))
  const paths = new Set(extra.map((f) => f.path))
  return [...readDefinitionFiles(join(root, 'definitions'), root).filter((f) => !paths.has(f.path)), ...extra]
}

const expectedLines = (caseName: string) =>
  readFileSync(join(fixtures, caseName, 'expected.txt'), 'utf8')
    .trim()
    .split('\n')

describe('broken definitions are refused with the expected error lines', () => {
  it.each(cases)('%s', (caseName) => {
    const result = buildSnapshot(overlay(caseName), { assetExists: publicAssetExists(root) })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors.map(formatDefinitionError)).toEqual(expectedLines(caseName))
  })
})

// The CLI itself (a process: it prints these lines as file:line:col and exits 1 on a broken copy,
// 0 with its summary on the repository) is tests/unit/validate-cli.test.ts; .ci/run runs it too.
