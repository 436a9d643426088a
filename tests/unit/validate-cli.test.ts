import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { validateReport } from '../../server/cli/validate-report'

const root = join(import.meta.dirname, '..', '..')
const tmp = mkdtempSync(join(tmpdir(), 'fw-validate-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

function validate(dir?: string) {
  const args = [join(root, 'server/cli/validate.ts')]
  if (dir) args.push(dir)
  return spawnSync(join(root, 'node_modules/.bin/tsx'), args, { cwd: tmp, encoding: 'utf8' })
}

/** What the CLI prints for a folder under tmp, run from tmp — in this process (the CLI's own wiring: the two process tests). */
function report(dir: string) {
  const r = validateReport(join(tmp, dir), { cwd: tmp, projectDefinitions: false })
  return { status: r.ok ? 0 : 1, lines: r.lines }
}

// The first two start the CLI as a process (tsx compiles it: several seconds on a busy machine): it
// exits 0 or 1 and prints the report; the cases after them read the same report in this process.
describe('npm run validate', { timeout: 60_000 }, () => {
  it('passes on the repository', () => {
    // An empty data folder (tmp): a content repository left in the checkout's .data would add the
    // "not live yet" hint (0618) after the last line.
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/validate.ts'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: join(tmp, 'data') },
    })
    expect(r.status).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines.at(-1)).toMatch(
      /^ok: 9 brands, .* valid \(\d+ ms, snapshot \w+\); 1 phone-rule warning above$/,
    )
    // The publish checks' coverage warning, at the brand default's file: printed, not failing the run.
    expect(lines.slice(0, -1)).toEqual([
      expect.stringMatching(
        /^warning: definitions\/phone-rules\/m10-default\.json:1:1 {2}\/ {2}\d+ pages of brand "m10" fall through to the default "m10-default"/,
      ),
    ])
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

  it('reports a bad comma once, in words, and not as a missing file elsewhere', () => {
    const copy = join(tmp, 'comma', 'definitions')
    cpSync(join(root, 'definitions'), copy, { recursive: true })
    const step = join(copy, 'steps', 'zip.json')
    writeFileSync(step, readFileSync(step, 'utf8').replace('"name": "zip",', '"name": "zip"'))
    const r = report(join('comma', 'definitions'))
    expect(r.status).toBe(1)
    expect(r.lines).toEqual([
      'comma/definitions/steps/zip.json:5:3  /  invalid JSON: expected a comma or `}` after the value of "name", found "title"',
      '',
      expect.stringMatching(/^1 error in comma\/definitions \(\d+ ms\)$/),
    ])
  })

  it('reports a page whose route is missing from the route → brand table, at the page', () => {
    const repo = join(tmp, 'repo')
    cpSync(join(root, 'definitions'), join(repo, 'definitions'), { recursive: true })
    cpSync(join(root, 'docs'), join(repo, 'docs'), { recursive: true })
    const page = readFileSync(join(repo, 'definitions', 'pages', 'quiz-grocery.json'), 'utf8')
    writeFileSync(
      join(repo, 'definitions', 'pages', 'quiz-grocery-r9.json'),
      page.replace('"/quiz/grocery/{step?}"', '"/quiz/grocery-r9/{step?}"'),
    )
    const r = report(join('repo', 'definitions'))
    expect(r.status).toBe(1)
    const { lines } = r
    expect(lines[0]).toBe(
      'repo/definitions/pages/quiz-grocery-r9.json:3:3  /path  route "/quiz/grocery-r9/{step?}" (brands m10 ac emily bh) is missing from the route → brand table in docs/decisions/0100-route-brand-matrix.md: add the row | `/quiz/grocery-r9/{step?}` | funnel | m10 ac emily bh |',
    )
    expect(lines.at(-1)).toMatch(/^1 error in repo\/definitions/)
  })

  it('checks a folder of any name, its warnings at that folder’s files (no crash after the run)', () => {
    const copy = join(tmp, 'elsewhere', 'content')
    cpSync(join(root, 'definitions'), copy, { recursive: true })
    const r = validate(join('elsewhere', 'content'))
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toMatch(
      /^warning: elsewhere\/content\/phone-rules\/m10-default\.json:1:1 {2}\/ {2}\d+ pages of brand "m10"/,
    )
    expect(lines.at(-1)).toMatch(/^ok: 9 brands, .*; 1 phone-rule warning above$/)
  })

  it('a marketer’s new page: the pages falling through to a default are said once, naming only the changed page', () => {
    const repo = join(tmp, 'marketer')
    cpSync(join(root, 'definitions'), join(repo, 'definitions'), { recursive: true })
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=M', '-c', 'user.email=m@x.test', ...args], {
        cwd: repo,
        encoding: 'utf8',
      })
    expect(git('init', '-q').status).toBe(0)
    expect(git('add', '-A').status).toBe(0)
    expect(git('commit', '-qm', 'definitions').status).toBe(0)
    const page = readFileSync(join(repo, 'definitions', 'pages', 'quiz-grocery.json'), 'utf8')
    writeFileSync(
      join(repo, 'definitions', 'pages', 'quiz-grocery-r9.json'),
      page.replace('"/quiz/grocery/{step?}"', '"/quiz/grocery-r9/{step?}"'),
    )
    const r = validate(join('marketer', 'definitions'))
    expect(r.status).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(
      /^warning: marketer\/definitions\/phone-rules\/m10-default\.json:1:1 {2}\/ {2}\d+ pages of brand "m10" fall through to the default "m10-default" \(no page-specific rule\), among them the changed page quiz-grocery-r9; /,
    )
    // Not the list of every unrelated page.
    expect(lines[0]).not.toMatch(/grocery, |\band \d+ more\b/)
    expect(lines[0].length).toBeLessThan(260)
  })
})
