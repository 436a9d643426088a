import { describe, expect, it } from 'vitest'
import { edited, editFile, repositoryFiles, snapshotOf } from '../../../tests/fixtures/edited-definitions'
import { stepImpact } from './step-impact'

const live = snapshotOf(repositoryFiles)

describe('shared-step impact', () => {
  it('finds nothing when no step changed', () => {
    expect(stepImpact(live, live)).toEqual([])
  })

  it('lists the funnels, pages, brands and experiments a change to step zip reaches, without shadowing funnels', () => {
    const next = edited('definitions/steps/zip.json', (d) => {
      d.subtitle = 'Plans differ by county.'
    })
    const [impact] = stepImpact(live, next)
    expect(impact).toMatchObject({
      step: 'zip',
      file: 'definitions/steps/zip.json',
      status: 'changed',
      changedFields: ['subtitle'],
      shadowed: ['test-page-quiz'],
    })
    expect(impact.funnels).toContain('quiz-otc')
    expect(impact.funnels).not.toContain('test-page-quiz')
    expect(impact.funnels).toHaveLength(14)
    expect(impact.pages).toContainEqual({
      page: 'quiz-otc',
      path: '/quiz/otc/{step?}',
      brands: ['m10', 'ac', 'emily', 'bh'],
      funnel: 'quiz-otc',
    })
    expect(impact.brands).toEqual(expect.arrayContaining(['ac', 'bh', 'emily', 'm10']))
    expect(impact.summary).toBe(`Shared by 14 funnels on ${impact.brands.length} brands`)
    // The landing page under experiment grocery-headline runs no funnel.
    expect(impact.experiments.map((e) => e.id)).not.toContain('grocery-headline')
  })

  it('counts a funnel whose override does not cover the changed field', () => {
    const next = edited('definitions/steps/zip.json', (d) => {
      d.title = 'Your ZIP code?'
    })
    const [impact] = stepImpact(live, next)
    expect(impact.funnels).toContain('test-page-quiz')
    expect(impact.shadowed).toEqual([])
    expect(impact.summary).toMatch(/^Shared by 15 funnels on \d+ brands$/)
  })

  it('names experiment variants that run the funnel through a form override', () => {
    const files = editFile('definitions/experiments/grocery-headline.json', (d) => {
      d.variants[1].overrides = { form: 'quiz-otc' }
    })
    const next = snapshotOf(
      editFile(
        'definitions/steps/contact.json',
        (d) => {
          d.submitLabel = 'Send'
        },
        files,
      ),
    )
    const [impact] = stepImpact(live, next)
    expect(impact.step).toBe('contact')
    const viaVariant = impact.pages.find((p) => p.experiment)
    expect(viaVariant).toMatchObject({
      page: 'grocery',
      funnel: 'quiz-otc',
      experiment: { id: 'grocery-headline', variant: 'question' },
    })
    const exp = impact.experiments.find((e) => e.id === 'grocery-headline')
    expect(exp?.variants).toContainEqual({ id: 'question', weight: 50, form: 'quiz-otc' })
  })
})
