import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readDefinitionFiles } from '../../server/content/read-definitions'
import { LocatedJson } from '../definitions/locate'
import { buildSnapshot, formatDefinitionError } from './build-snapshot'
import type { DefinitionFile } from './types'

const root = join(import.meta.dirname, '..', '..')

// The same reader the server uses, so the tests see exactly what it serves.
const repoFiles = (): DefinitionFile[] => readDefinitionFiles(join(root, 'definitions'), root)

function withFile(files: DefinitionFile[], path: string, text: string): DefinitionFile[] {
  return [...files.filter((f) => f.path !== path), { path, text }]
}

const page = (fields: Record<string, unknown>) =>
  `${JSON.stringify({ $schema: '../../schemas/page.schema.json', template: 'landing', ...fields }, null, 2)}\n`

describe('snapshot from the repository definitions', () => {
  it('builds with every brand and per-brand route tables', () => {
    const result = buildSnapshot(repoFiles())
    if (!result.ok) throw new Error(result.errors.map(formatDefinitionError).join('\n'))
    const s = result.snapshot
    expect([...s.brands.keys()].sort()).toEqual(['ac', 'bh', 'ccc', 'emily', 'gs', 'm10', 'mpa', 'ps', 'tqg'])
    for (const id of s.brands.keys())
      expect(s.routes.get(id)!.some((r) => r.pattern.source === '/')).toBe(true)
    expect(Object.isFrozen(s)).toBe(true)
  })

  it('applies schema defaults (benefits [], language english, indexable true)', () => {
    const files = withFile(
      repoFiles(),
      'definitions/pages/plain.json',
      page({ path: '/plain', brands: ['m10'], headline: 'Plain' }),
    )
    const result = buildSnapshot(files)
    if (!result.ok) throw new Error(result.errors.map(formatDefinitionError).join('\n'))
    const p = result.snapshot.pages.get('plain')!
    expect(p.benefits).toEqual([])
    expect(p.language).toBe('english')
    expect(p.indexable).toBe(true)
  })

  it('has a stable content id that changes with the content', () => {
    const a = buildSnapshot(repoFiles())
    const b = buildSnapshot(repoFiles())
    const c = buildSnapshot(
      withFile(repoFiles(), 'definitions/pages/plain.json', page({ path: '/plain', brands: ['m10'] })),
    )
    expect(a.ok && b.ok && c.ok).toBe(true)
    if (a.ok && b.ok && c.ok) {
      expect(a.snapshot.id).toBe(b.snapshot.id)
      expect(a.snapshot.id).not.toBe(c.snapshot.id)
    }
  })
})

describe('refused snapshots', () => {
  it('schema errors carry file, line, column and pointer', () => {
    const text = `{
  "$schema": "../../schemas/page.schema.json",
  "path": "/broken",
  "brands": ["m10"],
  "template": "landing",
  "benefits": ["ok", 42]
}
`
    const result = buildSnapshot(withFile(repoFiles(), 'definitions/pages/broken.json', text))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors).toHaveLength(1)
    const e = result.errors[0]
    expect(e).toMatchObject({
      file: 'definitions/pages/broken.json',
      line: 6,
      column: 22,
      pointer: '/benefits/1',
    })
    expect(formatDefinitionError(e)).toBe('definitions/pages/broken.json:6:22  /benefits/1  must be string')
  })

  it('a missing required property points at its own pointer, where it would go (the closing brace)', () => {
    const result = buildSnapshot(
      withFile(repoFiles(), 'definitions/pages/broken.json', '{\n  "path": "/x",\n  "brands": []\n}\n'),
    )
    expect(result.ok).toBe(false)
    if (!result.ok)
      expect(result.errors.map(formatDefinitionError)).toEqual([
        'definitions/pages/broken.json:4:1  /template  missing required property "template"',
      ])
  })

  it('an unknown property is named with its own line', () => {
    const result = buildSnapshot(
      withFile(
        repoFiles(),
        'definitions/pages/broken.json',
        '{\n  "template": "landing",\n  "brands": [],\n  "colour": "red"\n}\n',
      ),
    )
    expect(result.ok).toBe(false)
    if (!result.ok)
      expect(result.errors.map(formatDefinitionError)).toEqual([
        'definitions/pages/broken.json:4:3  /colour  unknown property "colour"',
      ])
  })

  it('refuses two pages claiming the same path on the same brand', () => {
    const files = withFile(
      repoFiles(),
      'definitions/pages/dupe.json',
      page({ path: '/privacy', brands: ['m10'] }),
    )
    const result = buildSnapshot(files)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors.some((e) => e.file.endsWith('/privacy.json') || e.file.endsWith('/dupe.json'))).toBe(
      true,
    )
    expect(result.errors.map((e) => e.message).join('\n')).toMatch(
      /path "\/privacy" on brand "m10" is already claimed by page/,
    )
  })

  it('allows the same path on different brands', () => {
    const files = withFile(
      repoFiles(),
      'definitions/pages/only-ps.json',
      page({ path: '/shared-path', brands: ['ps'] }),
    )
    const files2 = withFile(
      files,
      'definitions/pages/only-tqg.json',
      page({ path: '/shared-path', brands: ['tqg'] }),
    )
    expect(buildSnapshot(files2).ok).toBe(true)
  })

  it('refuses a page naming an unknown brand', () => {
    const result = buildSnapshot(
      withFile(repoFiles(), 'definitions/pages/ghost.json', page({ path: '/ghost', brands: ['m10', 'zz'] })),
    )
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.errors).toHaveLength(1)
      expect(result.errors[0]).toMatchObject({ file: 'definitions/pages/ghost.json', pointer: '/brands/1' })
      expect(result.errors[0].message).toMatch(/unknown brand "zz"/)
    }
  })

  it('refuses an unknown route middleware with the spec message', () => {
    const result = buildSnapshot(
      withFile(
        repoFiles(),
        'definitions/pages/mw.json',
        page({ path: '/mw', brands: ['m10'], validate: [{ middleware: 'no-such-check' }] }),
      ),
    )
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.errors[0].message).toMatch(/^Unknown route middleware "no-such-check"/)
  })

  it.each([
    ['javascript:alert(1)', /unsafe URL protocol "javascript:"/],
    ['data:text/html,hi', /unsafe URL protocol "data:"/],
    ['https://example.com/x', /external navigation is not allowed/],
    ['//evil.example/x', /protocol-relative/],
  ])('refuses destination %s', (destination, message) => {
    const result = buildSnapshot(
      withFile(
        repoFiles(),
        'definitions/pages/dest.json',
        page({ path: '/dest', brands: ['m10'], destination }),
      ),
    )
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.errors[0].pointer).toBe('/destination')
      expect(result.errors[0].message).toMatch(message)
    }
  })

  it('a funnel page without a destination points at /destination, at the line it would go on', () => {
    const path = 'definitions/pages/quiz-otc.json'
    const text = readFileSync(join(root, path), 'utf8')
    const data = JSON.parse(text)
    delete data.destination
    const edited = `${JSON.stringify(data, null, 2)}\n`
    const result = buildSnapshot(withFile(repoFiles(), path, edited))
    expect(result.ok).toBe(false)
    if (result.ok) return
    const closingBrace = edited.trimEnd().split('\n').length
    expect(result.errors.map(formatDefinitionError)).toEqual([
      `${path}:${closingBrace}:1  /destination  a funnel page needs a "destination" to finish to`,
    ])
  })

  it("a missing property of a nested object points at that object's closing brace", () => {
    const text = '{\n  "a": {\n    "b": 1\n  },\n  "list": [1]\n}'
    const at = new LocatedJson(text)
    expect(at.positionOf('/a/c')).toEqual({ line: 4, column: 3 })
    expect(at.positionOf('/a/c/d')).toEqual({ line: 4, column: 3 })
    expect(at.positionOf('/list/3')).toEqual({ line: 5, column: 3 })
    expect(at.positionOf('/a/b')).toEqual({ line: 3, column: 5 })
  })

  it('reports invalid JSON with its position', () => {
    const result = buildSnapshot(
      withFile(
        repoFiles(),
        'definitions/pages/bad.json',
        '{\n  "template": "landing",\n  "brands": [,]\n}\n',
      ),
    )
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.errors[0]).toMatchObject({ file: 'definitions/pages/bad.json', line: 3 })
  })

  it('reports every error at once', () => {
    let files = withFile(repoFiles(), 'definitions/pages/e1.json', page({ path: '/e1', brands: ['nope'] }))
    files = withFile(files, 'definitions/pages/e2.json', '{ "template": 5, "brands": [] }')
    const result = buildSnapshot(files)
    expect(result.ok).toBe(false)
    if (!result.ok)
      expect(new Set(result.errors.map((e) => e.file))).toEqual(
        new Set(['definitions/pages/e1.json', 'definitions/pages/e2.json']),
      )
  })
})
