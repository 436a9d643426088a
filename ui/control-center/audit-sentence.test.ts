import { describe, expect, it } from 'vitest'
import { auditSentence } from './audit-sentence'

const pub = { id: 'u-1', name: 'Pub', email: 'pub@example.com', role: 'publisher' }
const entry = (action: string, target: string | null, details: object, targetName: string | null = null) => ({
  actor: pub,
  action,
  target,
  targetName,
  details,
})

describe('auditSentence', () => {
  it('says what happened with names and short commits, never ids or JSON', () => {
    const from = 'abc1234'.padEnd(40, '0')
    const to = 'def5678'.padEnd(40, '0')
    expect(
      auditSentence(entry('publish', 'spring-sale', { from, to, paths: ['a', 'b', 'c'], publication: '7' })),
    ).toBe('Pub published branch spring-sale (3 files) — live abc1234 → def5678')
    expect(auditSentence(entry('commit', 'spring-sale', { from, to, paths: ['a'] }))).toBe(
      'Pub committed 1 file to branch spring-sale — abc1234 → def5678',
    )
    expect(
      auditSentence(
        entry('rollback', 'refs/heads/published', { from, to, paths: ['a', 'b'], publication: '7' }),
      ),
    ).toBe('Pub rolled live back to before publication #7 (2 files) — live abc1234 → def5678')
    expect(
      auditSentence(
        entry(
          'role.change',
          '0b9f3c0e-1111-4222-8333-944444444444',
          { from: 'editor', to: 'publisher' },
          'Dana',
        ),
      ),
    ).toBe('Pub changed the role of Dana from editor to publisher')
    expect(auditSentence(entry('image.upload', 'spring-sale', { paths: ['x.webp'] }))).toBe(
      'Pub uploaded an image on branch spring-sale (1 file)',
    )
    expect(
      auditSentence({ ...entry('publish.refused', null, { branch: 'b', errors: 2 }), actor: null }),
    ).toBe("The system's publish of branch b was refused: 2 errors")
    expect(auditSentence(entry('publish.refused', null, { rollback: '4', errors: 1 }))).toBe(
      "Pub's rollback was refused: 1 error",
    )
    expect(auditSentence(entry('something.new', 'b', {}))).toBe('Pub: something.new on branch b')
  })
})
