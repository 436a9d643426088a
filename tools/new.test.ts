import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { matchRoute } from '../engine/routing/match-route'
import { formatDefinitionError } from '../engine/snapshot/build-snapshot'
import { checkRouteMatrix, readRouteMatrix } from '../server/content/route-matrix'
import { SnapshotStore } from '../server/content/snapshot-store'
import { addMatrixRows, isPlaceholderError, scaffoldFunnel, scaffoldPage } from './new'

const root = join(import.meta.dirname, '..')
let dir: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fw-new-'))
  cpSync(join(root, 'definitions'), join(dir, 'definitions'), { recursive: true })
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function build() {
  const result = SnapshotStore.build(join(dir, 'definitions'), dir, root)
  if (!result.ok) throw new Error(result.errors.map(formatDefinitionError).join('\n'))
  return result.snapshot
}

/**
 * A scaffold does not validate until its copy is written: validation names every "TODO" text, at its
 * own line and pointer, and nothing else. Writing them (as the author would) makes it valid.
 */
function writeTheCopy(files: string[]) {
  const result = SnapshotStore.build(join(dir, 'definitions'), dir, root)
  expect(result.ok).toBe(false)
  const errors = result.ok ? [] : result.errors
  expect(errors.length).toBeGreaterThan(0)
  expect(errors.filter((e) => !isPlaceholderError(e)).map(formatDefinitionError)).toEqual([])
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    const todos = errors.filter((e) => file.endsWith(e.file.replace(/^definitions\//, '')))
    for (const e of todos) expect(text.split('\n')[e.line - 1], formatDefinitionError(e)).toContain('TODO')
    let n = 0
    writeFileSync(
      file,
      text.replace(/"TODO[^"]*"/g, () => `"Real copy number ${++n}"`),
    )
  }
}

describe('npm run new', () => {
  it('scaffolds a page that validates and is served at /<slug> on its brands', () => {
    const files = scaffoldPage(join(dir, 'definitions'), 'spring-dental', { brands: ['m10', 'gs'] })
    expect(JSON.parse(readFileSync(files[0], 'utf8')).$schema).toBe('../../schemas/page.schema.json')
    writeTheCopy(files)
    const s = build()
    expect(matchRoute(s, 'gs', '/spring-dental')?.page.key).toBe('spring-dental')
    expect(matchRoute(s, 'tqg', '/spring-dental')).toBeNull()
  })

  it.each(['medicare', 'auto'] as const)(
    'scaffolds a %s funnel and its page, finishing on /thank-you',
    (vertical) => {
      writeTheCopy(scaffoldFunnel(join(dir, 'definitions'), 'spring-quiz', { vertical }))
      const s = build()
      const brand = vertical === 'auto' ? 'tqg' : 'm10'
      const match = matchRoute(s, brand, '/spring-quiz/zip')
      expect(match?.params).toEqual({ step: 'zip' })
      expect(match?.page.destination).toBe('/thank-you')
      expect(s.funnels.get('spring-quiz')!.steps[0].name).toBe('zip')
    },
  )

  it('adds the route → brand table row of the page it writes, so validation agrees', () => {
    cpSync(join(root, 'docs'), join(dir, 'docs'), { recursive: true })
    const files = scaffoldFunnel(join(dir, 'definitions'), 'spring-quiz', {
      vertical: 'auto',
      brands: ['tqg'],
    })
    expect(addMatrixRows(join(dir, 'definitions'), files)).toEqual(['/spring-quiz/{step?}'])
    expect(readRouteMatrix(dir)?.find((r) => r.route === '/spring-quiz/{step?}')).toMatchObject({
      kind: 'funnel',
      brands: ['tqg'],
    })
    writeTheCopy(files)
    expect(checkRouteMatrix(build(), dir)).toEqual([])
  })

  it('refuses a bad name and an existing file', () => {
    expect(() => scaffoldPage(join(dir, 'definitions'), 'Bad Name')).toThrow(
      /lower-case words joined by dashes/,
    )
    expect(() => scaffoldPage(join(dir, 'definitions'), 'grocery')).toThrow(/already exists/)
  })
})
