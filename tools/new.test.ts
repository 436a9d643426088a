import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { matchRoute } from '../engine/routing/match-route'
import { formatDefinitionError } from '../engine/snapshot/build-snapshot'
import { SnapshotStore } from '../server/content/snapshot-store'
import { scaffoldFunnel, scaffoldPage } from './new'

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

describe('npm run new', () => {
  it('scaffolds a page that validates and is served at /<slug> on its brands', () => {
    const files = scaffoldPage(join(dir, 'definitions'), 'spring-dental', { brands: ['m10', 'gs'] })
    expect(JSON.parse(readFileSync(files[0], 'utf8')).$schema).toBe('../../schemas/page.schema.json')
    const s = build()
    expect(matchRoute(s, 'gs', '/spring-dental')?.page.key).toBe('spring-dental')
    expect(matchRoute(s, 'tqg', '/spring-dental')).toBeNull()
  })

  it.each(['medicare', 'auto'] as const)(
    'scaffolds a %s funnel and its page, finishing on /thank-you',
    (vertical) => {
      scaffoldFunnel(join(dir, 'definitions'), 'spring-quiz', { vertical })
      const s = build()
      const brand = vertical === 'auto' ? 'tqg' : 'm10'
      const match = matchRoute(s, brand, '/spring-quiz/zip')
      expect(match?.params).toEqual({ step: 'zip' })
      expect(match?.page.destination).toBe('/thank-you')
      expect(s.funnels.get('spring-quiz')!.steps[0].name).toBe('zip')
    },
  )

  it('refuses a bad name and an existing file', () => {
    expect(() => scaffoldPage(join(dir, 'definitions'), 'Bad Name')).toThrow(
      /lower-case words joined by dashes/,
    )
    expect(() => scaffoldPage(join(dir, 'definitions'), 'grocery')).toThrow(/already exists/)
  })
})
