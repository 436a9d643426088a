import { describe, expect, it } from 'vitest'
import { edited, repositoryFiles, snapshotOf } from '../../../tests/fixtures/edited-definitions'
import { changedFunnels, pagesRunning } from './changed-funnels'
import { checkFunnelConsent, consentGate } from './consent-gate'
import { LruCache } from './gate-errors'

const live = snapshotOf(repositoryFiles)
type FunnelDoc = { steps: { step: string; overrides?: Record<string, unknown> }[] }

describe('consent gate', () => {
  it('passes every funnel of the repository', () => {
    expect(consentGate(null, live, { cache: new LruCache(64) })).toEqual([])
  })

  it('checks only funnels whose resolved definition changed', () => {
    expect(changedFunnels(live, live)).toEqual([])
    const next = edited('definitions/funnels/quiz-otc.json', (d) => {
      ;(d as FunnelDoc).steps[4].overrides = { title: 'Reach you where?' }
    })
    expect(changedFunnels(live, next).map((f) => f.id)).toEqual(['quiz-otc'])
  })

  it('refuses a contact step made skippable, naming the path and the pages', () => {
    const next = edited('definitions/funnels/quiz-otc.json', (d) => {
      ;(d as FunnelDoc).steps[4].overrides = { skippable: true }
    })
    const errors = consentGate(live, next, { cache: new LruCache(64) })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ file: 'definitions/funnels/quiz-otc.json', pointer: '/steps/4' })
    expect(errors[0].message).toMatch(
      /^path zip→medicare→medicaid→name→contact\(skipped\) finishes with a phone number that no consent-bearing step collected: step "contact" can be skipped \(and 3 more paths\) \(pages quiz-otc/,
    )
  })

  it('refuses a set-field phone before the contact step, on the path that skips it', () => {
    const next = edited('definitions/funnels/quiz-otc.json', (d) => {
      ;(d as FunnelDoc).steps[1].overrides = {
        onSubmit: [
          { type: 'set-field', field: 'phone', value: '(555) 201-0000' },
          { type: 'finish', when: { type: 'answer-equals', field: 'haveMedicare', value: false } },
        ],
      }
    })
    const errors = consentGate(live, next, { cache: new LruCache(64) })
    expect(errors.map((e) => `${e.file} ${e.pointer} ${e.message.split(':')[0]}`)).toEqual([
      'definitions/funnels/quiz-otc.json /steps/1 path zip→medicare(no) finishes with a phone number that no consent-bearing step collected',
    ])
    expect(errors[0].message).toContain('a set-field action on step "medicare" sets the phone')
  })

  it('refuses a phone set after the contact step collected one', () => {
    const next = edited('definitions/funnels/test-page-quiz.json', (d) => {
      ;(d as FunnelDoc).steps[2].overrides = {
        onSubmit: { type: 'set-field', field: 'phone', value: '(555) 201-0000' },
      }
    })
    const errors = consentGate(live, next, { cache: new LruCache(64) })
    expect(errors).toHaveLength(1)
    expect(errors[0].message).toMatch(/^path zip→name→contact finishes with a phone number/)
  })

  it('fails closed when the time budget runs out, and does not cache that', () => {
    const next = edited('definitions/funnels/quiz-otc.json', (d) => {
      ;(d as FunnelDoc).steps[4].overrides = { title: 'Changed' }
    })
    let t = 0
    const cache = new LruCache<never>(64)
    const errors = consentGate(live, next, { cache, budgetMs: 5, now: () => (t += 10) })
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ file: 'definitions/funnels/quiz-otc.json', pointer: '/steps' })
    expect(errors[0].message).toMatch(/could not check every path within its budget .* publishing is refused/)
    expect(cache.size).toBe(0)
    expect(consentGate(live, next, { cache })).toEqual([])
    expect(cache.size).toBe(1)
  })

  it('knows the pages that run a funnel, through experiment variants too', () => {
    const next = edited('definitions/experiments/grocery-headline.json', (d) => {
      ;(d as { variants: { overrides?: Record<string, unknown> }[] }).variants[1].overrides = {
        form: 'quiz-otc',
      }
    })
    const uses = pagesRunning(next, 'quiz-otc')
    expect(uses.map((u) => u.page.key)).toContain('grocery')
    expect(uses.find((u) => u.page.key === 'grocery')?.experiment).toMatchObject({ id: 'grocery-headline' })
    const funnel = next.funnels.get('quiz-otc')!
    const r = checkFunnelConsent(funnel, {
      name: 'x',
      template: 'funnel',
      destination: '/thank-you',
      allowExternalDestination: false,
    })
    expect(r).toEqual({ ok: true, findings: [] })
  })
})
