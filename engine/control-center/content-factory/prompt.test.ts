import { describe, expect, it } from 'vitest'
import { lintClaims } from './claims-lint'
import { buildMessages, HOUSE_RULES, parseDraft, repairMessages } from './prompt'

const author = {
  id: 'mpa-agents',
  name: 'MyPlanAdvocate Licensed Agent Team',
  bio: 'Licensed agents.',
  credentials: ['Licensed health insurance agents'],
  persona: {
    voice: 'warm, plain',
    audience: 'people turning 65',
    readingLevel: 'grade-6' as const,
    doNot: ['promise savings'],
  },
}

describe('content factory prompt', () => {
  it('puts the persona and every house rule in the system message and the brief in the user message', () => {
    const [system, user] = buildMessages(
      author,
      { topic: 'Dental coverage', carrier: 'Humana', keywords: ['dental', 'Medicare'], words: 600 },
      ['Humana dental, explained'],
    )
    expect(system.role).toBe('system')
    expect(system.content).toContain('as MyPlanAdvocate Licensed Agent Team')
    expect(system.content).toContain('Voice: warm, plain.')
    expect(system.content).toContain('Reading level: grade 6.')
    expect(system.content).toContain('Never: promise savings.')
    for (const rule of HOUSE_RULES) expect(system.content).toContain(rule)
    expect(user.content).toBe(
      'Topic: Dental coverage\nCarrier: Humana\nKeywords: dental, Medicare\nLength: about 600 words\nArticles that already exist (do not repeat them):\n- Humana dental, explained',
    )
  })

  it('works without a persona, and a repair turn quotes the answer and the problems', () => {
    const [system] = buildMessages({ id: 'a', name: 'A', bio: 'B.' }, { topic: 't' }, [])
    expect(system.content).not.toContain('Voice:')
    const again = repairMessages([system], '{"title": 1}', ['"title" must be a non-empty string'])
    expect(again.at(-2)).toEqual({ role: 'assistant', content: '{"title": 1}' })
    expect(again.at(-1)!.content).toContain('- "title" must be a non-empty string')
  })

  it('parses a plain or fenced JSON answer and names what is missing', () => {
    const draft = {
      title: 'T',
      description: 'D',
      carrier: 'Humana',
      slug: 'humana-dental',
      body: ['# T', 'Text'],
    }
    expect(parseDraft(JSON.stringify(draft))).toEqual({ ok: true, draft })
    expect(parseDraft(`Here you go:\n\`\`\`json\n${JSON.stringify(draft)}\n\`\`\`\n`)).toEqual({
      ok: true,
      draft,
    })
    expect(parseDraft('not json').ok).toBe(false)
    expect(parseDraft(JSON.stringify({ ...draft, body: [], slug: '' }))).toEqual({
      ok: false,
      problems: ['"slug" must be a non-empty string', '"body" must be a non-empty array of lines'],
    })
  })
})

describe('claims lint', () => {
  it('warns at the line of a guarantee, free money, an unsourced monthly amount or a government program', () => {
    const w = lintClaims([
      '# Grocery allowance',
      'This benefit is guaranteed for everyone.',
      'Get $150 a month in free money!',
      'It is a government program.',
      'Benefits vary by plan and county.',
    ])
    expect(w.map((x) => [x.line, x.phrase])).toEqual([
      [2, 'guaranteed'],
      [3, 'free money'],
      [3, '$150 a month'],
      [4, 'government program'],
    ])
    expect(lintClaims(['Benefits vary by plan and county.'])).toEqual([])
  })
})
