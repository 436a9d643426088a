/**
 * Each folder in tests/fixtures/broken-definitions/<case>/ holds definition files laid over the
 * repository's catalogue and an `expected.txt` with the exact `file:line:col  /pointer  message` lines
 * validation must print — nothing more, nothing less.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildSnapshot, formatDefinitionError } from '../../engine/snapshot/build-snapshot'
import type { DefinitionFile } from '../../engine/snapshot/types'
import { publicAssetExists, readDefinitionFiles, toPosix } from '../../server/content/read-definitions'

const root = join(import.meta.dirname, '..', '..')
const fixtures = join(root, 'tests', 'fixtures', 'broken-definitions')
const cases = readdirSync(fixtures).sort()
const tsx = join(root, 'node_modules', '.bin', 'tsx')

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

// Each test starts a process (tsx compiles the CLI): allow for a busy machine.
describe('npm run validate', { timeout: 60_000 }, () => {
  it('prints every error of a broken catalogue with file:line:col and exits 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fw-validate-'))
    try {
      cpSync(join(root, 'definitions'), join(dir, 'definitions'), { recursive: true })
      for (const c of ['javascript-destination', 'unknown-step', 'unknown-author'])
        cpSync(join(fixtures, c, 'definitions'), join(dir, 'definitions'), { recursive: true })
      // Run from the copy's folder so printed paths are relative to it, as an editor would want.
      const run = spawnSync(tsx, [join(root, 'server', 'cli', 'validate.ts'), join(dir, 'definitions')], {
        cwd: dir,
        encoding: 'utf8',
      })
      expect(run.status).toBe(1)
      for (const c of ['javascript-destination', 'unknown-step', 'unknown-author'])
        for (const line of expectedLines(c)) expect(run.stdout).toContain(line)
      expect(run.stdout).toMatch(/\n3 errors in definitions \(\d+ ms\)/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('is clean on the repository catalogue', () => {
    // An empty data folder: a content repository left in the checkout's .data would add the
    // "not live yet" hint (0618) after the last line.
    const data = mkdtempSync(join(tmpdir(), 'fw-validate-data-'))
    const run = spawnSync(tsx, [join(root, 'server', 'cli', 'validate.ts')], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: data },
    })
    rmSync(data, { recursive: true, force: true })
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    // The last line (phone-rule coverage warnings, which never fail the run, may come before it).
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(
      /^ok: 9 brands, \d+ pages, \d+ funnels, \d+ steps, .* valid/,
    )
  })
})
