import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const tmp = mkdtempSync(join(tmpdir(), 'fw-validate-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function validate(dir?: string) {
  const args = [join(root, 'server/cli/validate.ts')]
  if (dir) args.push(dir)
  return spawnSync(join(root, 'node_modules/.bin/tsx'), args, { cwd: tmp, encoding: 'utf8' })
}

describe('npm run validate', { timeout: 60_000 }, () => {
  it('passes on the repository', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/validate.ts'], {
      cwd: root,
      encoding: 'utf8',
    })
    expect(r.stdout).toMatch(/^ok: 9 brands/)
    expect(r.status).toBe(0)
  })

  it('fails on a broken copy with file:line:col  /pointer  message lines', () => {
    const copy = join(tmp, 'definitions')
    cpSync(join(root, 'definitions'), copy, { recursive: true })
    const brandFile = join(copy, 'brands', 'bh.json')
    writeFileSync(
      brandFile,
      readFileSync(brandFile, 'utf8').replace('"vertical": "medicare"', '"vertical": "boats"'),
    )
    const pageFile = join(copy, 'pages', 'privacy.json')
    writeFileSync(pageFile, readFileSync(pageFile, 'utf8').replace('"ac",', '"ac", "nope",'))
    const r = validate('definitions')
    expect(r.status).toBe(1)
    const lines = r.stdout.trim().split('\n')
    expect(lines).toContain(
      'definitions/brands/bh.json:6:3  /vertical  must be one of "medicare", "auto", "internal"',
    )
    expect(
      lines.some((l) =>
        /^definitions\/pages\/privacy\.json:\d+:\d+ {2}\/brands\/1 {2}unknown brand "nope"/.test(l),
      ),
    ).toBe(true)
    expect(lines.at(-1)).toMatch(/^2 errors in definitions/)
  })
})
