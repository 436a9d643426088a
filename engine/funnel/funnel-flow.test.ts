import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Funnel } from '../../schemas/generated/funnel'
import type { Step } from '../../schemas/generated/step'
import { actionSentence, conditionWords, funnelFlow, resolveFlowSteps, targetWords } from './funnel-flow'

const root = resolve(import.meta.dirname, '..', '..', 'definitions')
const read = <T>(path: string): T => JSON.parse(readFileSync(resolve(root, path), 'utf8')) as T
const stepsOf = (ids: string[]) => new Map(ids.map((id) => [id, read<Step>(`steps/${id}.json`)]))

describe('sentences', () => {
  it('reads conditions and actions as a marketer would say them', () => {
    expect(
      actionSentence({
        type: 'go-to-step',
        step: 'contact',
        when: { type: 'answer-equals', field: 'haveMedicaid', value: false },
      }),
    ).toBe('If haveMedicaid is no, go to step contact.')
    expect(actionSentence({ type: 'finish' })).toBe("Finish (go to the page's destination).")
    expect(actionSentence({ type: 'set-field', field: 'phone', value: '5555555555' })).toBe(
      'Set phone to “5555555555”.',
    )
    expect(
      conditionWords({
        type: 'any',
        conditions: [
          { type: 'answer-in', field: 'zipcode', values: ['90210', '10001'] },
          { type: 'not', condition: { type: 'low-bid' } },
          {
            type: 'all',
            conditions: [
              { type: 'not-low-bid' },
              { type: 'answer-equals', field: 'haveMedicare', value: true },
            ],
          },
        ],
      }),
    ).toBe(
      'zipcode is one of “90210”, “10001” or not (the bid is low) or (the bid is not low and haveMedicare is yes)',
    )
  })
})

describe('funnelFlow on real definitions', () => {
  it('draws the auto quote: a jump past company for the uninsured, else each next step, then the destination', () => {
    const funnel = read<Funnel>('funnels/compare-auto.json')
    const steps = resolveFlowSteps(funnel, stepsOf(funnel.steps.map((s) => s.step)))
    const flow = funnelFlow(steps)
    const names = flow.steps.map((s) => s.name)
    const insured = names.indexOf('insured')
    const from = flow.edges.filter((e) => e.from === insured)
    expect(from.map((e) => [targetWords(e.to, flow.steps), e.when, e.fallback])).toEqual([
      ['step homeowner', 'currentlyInsured is no', false],
      ['step company', null, true],
    ])
    const last = flow.edges.filter((e) => e.from === names.length - 1)
    expect(last).toEqual([
      { from: names.length - 1, to: { kind: 'finish' }, on: 'submit', when: null, fallback: true },
    ])
    expect(flow.unreachable).toEqual([])
    expect(flow.deadEnds).toEqual([])
    expect(flow.missingTargets).toEqual([])
  })

  it('finds unreachable steps, dead ends and jumps to steps the funnel does not have', () => {
    const funnel = read<Funnel>('funnels/grocery-allowance-r2.json')
    const library = stepsOf(funnel.steps.map((s) => s.step))
    const flow = funnelFlow(
      resolveFlowSteps(
        {
          steps: [
            { step: 'zip', overrides: { onSubmit: { type: 'go-to-step', step: 'name' } } },
            { step: 'medicare', overrides: { onSubmit: { type: 'stay' } } },
            { step: 'medicaid', overrides: { onSubmit: { type: 'go-to-step', step: 'nowhere' } } },
            { step: 'name' },
            { step: 'contact' },
          ],
        },
        library,
      ),
    )
    expect(flow.unreachable.map((i) => flow.steps[i].name)).toEqual(['medicare', 'medicaid'])
    expect(flow.deadEnds.map((i) => flow.steps[i].name)).toEqual(['medicare', 'medicaid'])
    expect(flow.missingTargets).toEqual([{ from: 2, step: 'nowhere' }])
  })

  it('takes onEnter moves before the step shows, and an unconditional one skips the step', () => {
    const funnel = read<Funnel>('funnels/grocery-allowance-r2.json')
    const flow = funnelFlow(
      resolveFlowSteps(
        {
          steps: [
            { step: 'zip' },
            {
              step: 'medicare',
              overrides: { onEnter: { type: 'go-to-page', path: '/call', when: { type: 'low-bid' } } },
            },
            { step: 'medicaid', overrides: { onEnter: { type: 'finish' } } },
          ],
        },
        stepsOf(funnel.steps.map((s) => s.step)),
      ),
    )
    expect(
      flow.edges.filter((e) => e.from === 1).map((e) => [e.on, targetWords(e.to, flow.steps), e.when]),
    ).toEqual([
      ['enter', 'page /call', 'the bid is low'],
      ['submit', 'step medicaid', null],
    ])
    expect(flow.edges.filter((e) => e.from === 2)).toEqual([
      { from: 2, to: { kind: 'finish' }, on: 'enter', when: null, fallback: false },
    ])
  })
})
