import { describe, expect, it } from 'vitest'
import { edited, repositoryFiles, snapshotOf } from '../../../tests/fixtures/edited-definitions'
import { budgetOf } from './funnel-explorer'
import { funnelGraph, pathDiff } from './path-diff'

const live = snapshotOf(repositoryFiles)
const page = {
  name: 'quiz-otc',
  template: 'funnel',
  destination: '/thank-you',
  allowExternalDestination: false,
}

describe('path-impact diff', () => {
  it('draws a real funnel as step edges labelled with answer and action', () => {
    const g = funnelGraph(live.funnels.get('quiz-otc')!, page, budgetOf(3_000))
    expect(g.edges).toContainEqual({ from: 'zip', answer: 'answer', action: 'next', to: 'medicare' })
    expect(g.edges).toContainEqual({ from: 'medicare', answer: 'any answer', action: 'next', to: 'medicaid' })
    expect(g.edges).toContainEqual({
      from: 'contact',
      answer: 'answer',
      action: 'next',
      to: 'destination /thank-you',
    })
    expect(g.unreachable).toEqual([])
    expect(g.deadEnds).toEqual([])
  })

  it('reports an added go-to-step edge, the removed one, changed ends and unreachable steps', () => {
    const next = edited('definitions/funnels/quiz-otc.json', (d) => {
      d.steps[1].overrides = {
        onSubmit: {
          type: 'go-to-step',
          step: 'contact',
          when: { type: 'answer-equals', field: 'haveMedicare', value: false },
        },
      }
    })
    const diff = pathDiff(live, next)
    expect(diff.funnels).toHaveLength(1)
    const f = diff.funnels[0]
    expect(f).toMatchObject({
      funnel: 'quiz-otc',
      file: 'definitions/funnels/quiz-otc.json',
      status: 'changed',
    })
    expect(f.edgesAdded).toEqual([
      { from: 'medicare', answer: 'answer', action: 'next', to: 'medicaid' },
      { from: 'medicare', answer: 'no', action: 'go-to-step', to: 'contact' },
    ])
    expect(f.edgesRemoved).toEqual([
      { from: 'medicare', answer: 'any answer', action: 'next', to: 'medicaid' },
    ])
    expect(f.pathsAdded).toContain('zip→medicare(no)→contact')
    expect(f.pathsRemoved).toContain('zip→medicare(no)→medicaid→name→contact')
    expect(f.newUnreachable).toEqual([])
    expect(f.edges.filter((e) => e.change === 'removed')).toHaveLength(1)
    expect(JSON.parse(JSON.stringify(diff))).toEqual(diff)
  })

  it('reports a path whose end changed and a step nobody reaches any more', () => {
    const next = edited('definitions/funnels/quiz-otc.json', (d) => {
      d.steps[2].overrides = { onSubmit: { type: 'go-to-page', path: '/privacy' } }
    })
    const f = pathDiff(live, next).funnels[0]
    expect(f.endsChanged).toContainEqual({
      path: 'zip→medicare→medicaid→…',
      before: 'the destination /thank-you',
      after: 'the page /privacy',
    })
    expect(f.newUnreachable).toEqual(['name', 'contact'])
    expect(f.edgesAdded).toContainEqual({
      from: 'medicaid',
      answer: 'any answer',
      action: 'go-to-page /privacy',
      to: 'page /privacy',
    })
  })

  it('reports a new dead end: a step that stays forever', () => {
    const next = edited('definitions/funnels/quiz-otc.json', (d) => {
      d.steps[3].overrides = { onSubmit: { type: 'stay' } }
    })
    const f = pathDiff(live, next).funnels[0]
    expect(f.newDeadEnds).toEqual(['name'])
    expect(f.edgesAdded).toContainEqual({ from: 'name', answer: 'answer', action: 'stay', to: 'name' })
    expect(f.newUnreachable).toEqual(['contact'])
  })
})
