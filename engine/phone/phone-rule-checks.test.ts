import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readDefinitionFiles } from '../../server/content/read-definitions'
import { buildSnapshot, formatDefinitionError } from '../snapshot/build-snapshot'
import type { DefinitionFile } from '../snapshot/types'

const root = join(import.meta.dirname, '..', '..')
// The same reader the server uses, so the tests see exactly what it serves.
const repoFiles = (): DefinitionFile[] => readDefinitionFiles(join(root, 'definitions'), root)
const rule = (fields: Record<string, unknown>) =>
  JSON.stringify(
    {
      $schema: '../../schemas/phone-rule.schema.json',
      defaultNumber: '18885550199',
      placementId: 'test-placement',
      afid: '1',
      ...fields,
    },
    null,
    2,
  )
function errorsWith(files: Record<string, string>, drop: string[] = []): string[] {
  const all = repoFiles().filter((f) => !drop.includes(f.path) && !(f.path in files))
  for (const [path, text] of Object.entries(files)) all.push({ path, text })
  const r = buildSnapshot(all)
  return r.ok ? [] : r.errors.map(formatDefinitionError)
}

describe('phone rule definitions', () => {
  it('every public brand has a default rule in the repository', () => {
    const r = buildSnapshot(repoFiles())
    if (!r.ok) throw new Error(r.errors.map(formatDefinitionError).join('\n'))
    const rules = r.snapshot.documents.phoneRule
    const defaults = [...rules.values()].filter((x) => !x.match)
    expect(defaults.map((d) => d.brand).sort()).toEqual([
      'ac',
      'bh',
      'emily',
      'gs',
      'm10',
      'mpa',
      'ps',
      'tqg',
    ])
  })
  it('refuses a bad number with file, line and pointer', () => {
    const errors = errorsWith({
      'definitions/phone-rules/m10-default.json': rule({
        id: 'm10-default',
        brand: 'm10',
        defaultNumber: '555-0101',
      }),
    })
    expect(errors.join('\n')).toMatch(
      /phone-rules\/m10-default\.json:\d+:\d+ {2}\/defaultNumber {2}must match pattern/,
    )
  })
  it('refuses a missing default, a second default, unknown brands and pages, and ambiguous rules', () => {
    expect(errorsWith({}, ['definitions/phone-rules/gs-default.json']).join('\n')).toMatch(
      /brand "gs" has no default phone rule/,
    )
    expect(
      errorsWith({ 'definitions/phone-rules/gs-two.json': rule({ id: 'gs-two', brand: 'gs' }) }).join('\n'),
    ).toMatch(/already has a default phone rule/)
    expect(
      errorsWith({
        'definitions/phone-rules/zz.json': rule({ id: 'zz', brand: 'zz', match: { afid: ['1'] } }),
      }).join('\n'),
    ).toMatch(/unknown brand "zz"/)
    expect(
      errorsWith({
        'definitions/phone-rules/cc.json': rule({ id: 'cc', brand: 'ccc', match: { afid: ['1'] } }),
      }).join('\n'),
    ).toMatch(/internal and shows no phone line/)
    const pageErrors = errorsWith({
      'definitions/phone-rules/gs-pages.json': rule({
        id: 'gs-pages',
        brand: 'gs',
        match: { pages: ['nope', 'home-m10'] },
      }),
    }).join('\n')
    expect(pageErrors).toMatch(/\/match\/pages\/0 {2}unknown page "nope"/)
    expect(pageErrors).toMatch(/\/match\/pages\/1 {2}page "home-m10" is not served on brand "gs"/)
    expect(
      errorsWith({
        'definitions/phone-rules/m10-fb2.json': rule({
          id: 'm10-fb2',
          brand: 'm10',
          match: { utmSource: ['FB'] },
        }),
      }).join('\n'),
    ).toMatch(/same visitors as phone rule "m10-facebook"/)
  })
})
