import { describe, expect, it } from 'vitest'
import { createActor, waitFor } from 'xstate'
import english from '../../definitions/ui-text/english.json' with { type: 'json' }
import { FakeBrowser } from '../../tests/model/fake-browser'
import type { ResolvedFunnel } from '../snapshot/types'
import { funnelMachineWith } from './funnel-machine'

const page = { name: 'quiz', template: 'funnel', destination: '/thank-you', allowExternalDestination: false }
const zipStep = {
  id: 'zip',
  stepId: 'zip',
  name: 'zip',
  title: 'ZIP?',
  fields: [{ name: 'zipcode' as const, kind: 'zip' as const, label: 'ZIP' }],
}
const yesStep = {
  id: 'mc',
  stepId: 'mc',
  name: 'medicare',
  title: 'Medicare?',
  fields: [{ name: 'haveMedicare' as const, kind: 'yes-no' as const, label: 'Medicare' }],
}
const funnel = (over: Partial<ResolvedFunnel> = {}): ResolvedFunnel => ({
  id: 'f',
  formVersion: 'v1',
  language: 'english',
  steps: [zipStep, yesStep],
  text: { funnel: english.funnel, messages: english.messages },
  ...over,
})

async function run(f: ResolvedFunnel, p = page, demand: { bid: number; isLowBid: boolean } | null = null) {
  const browser = new FakeBrowser('/q/zip', demand)
  const actor = createActor(funnelMachineWith(browser.deps()), {
    input: { funnel: f, page: p, stepParam: 'zip', basePath: '/q', search: '' },
  }).start()
  await waitFor(actor, (s) => s.matches('showing'))
  return { actor, browser }
}

describe('funnel machine', () => {
  it('finishes to the destination after the last step', async () => {
    const { actor, browser } = await run(funnel())
    actor.send({ type: 'SUBMIT', values: { zipcode: '90210' } })
    actor.send({ type: 'SUBMIT', values: { haveMedicare: true } })
    await waitFor(actor, (s) => s.status === 'done')
    expect(browser.left).toBe('/thank-you')
    // One lead, after the last step's submission (experiment results count it).
    const tracked = browser.emitted.flatMap((e) => (e.kind === 'track' ? [e.event] : []))
    expect(tracked).toEqual(['formStepSubmitted', 'formStepSubmitted', 'funnelCompleted'])
    expect(browser.emitted.at(-1)).toMatchObject({
      properties: { formVersion: 'v1', stepName: 'medicare', stepNumber: 2, exit: 'destination' },
    })
  })

  it('refuses an external destination without permission (spec point 8)', async () => {
    const { actor, browser } = await run(funnel({ steps: [zipStep] }), {
      ...page,
      destination: 'https://example.com/',
    })
    actor.send({ type: 'SUBMIT', values: { zipcode: '90210' } })
    await waitFor(actor, (s) => s.status !== 'active')
    expect(actor.getSnapshot().value).toBe('refused')
    expect(browser.left).toBeNull()
  })

  it('a low bid from the on-enter demand check routes to another page', async () => {
    const gated = {
      ...zipStep,
      onEnter: [
        { type: 'demand-check' as const },
        { type: 'go-to-page' as const, path: '/call-now', when: { type: 'low-bid' as const } },
      ],
    }
    const browser = new FakeBrowser('/q/zip', { bid: 3, isLowBid: true })
    const actor = createActor(funnelMachineWith(browser.deps()), {
      input: {
        funnel: funnel({ steps: [gated, yesStep] }),
        page,
        stepParam: 'zip',
        basePath: '/q',
        search: '',
      },
    }).start()
    await waitFor(actor, (s) => s.status === 'done')
    expect(actor.getSnapshot().value).toBe('left')
    expect(browser.left).toBe('/call-now')
    // Leaving for another page is no lead.
    expect(browser.emitted.some((e) => e.kind === 'track' && e.event === 'funnelCompleted')).toBe(false)
    expect(actor.getSnapshot().context.demand).toEqual({ bid: 3, isLowBid: true })
  })

  it('on-submit go-to-step jumps, and the stay action keeps the step', async () => {
    const third = { ...zipStep, stepId: 'z2', name: 'end' }
    const jump = {
      ...zipStep,
      onSubmit: {
        type: 'go-to-step' as const,
        step: 'end',
        when: { type: 'answer-equals' as const, field: 'zipcode' as const, value: '90210' },
      },
    }
    const { actor, browser } = await run(funnel({ steps: [jump, yesStep, third] }))
    actor.send({ type: 'SUBMIT', values: { zipcode: '90210' } })
    await waitFor(actor, (s) => s.matches('showing') && s.context.stepIndex === 2)
    expect(browser.url).toBe('/q/end')
  })

  it('the form back button with no history of ours replaces the URL with the previous step', async () => {
    const browser = new FakeBrowser('/q/medicare')
    const actor = createActor(funnelMachineWith(browser.deps()), {
      input: { funnel: funnel(), page, stepParam: 'medicare', basePath: '/q', search: '?a=1' },
    }).start()
    await waitFor(actor, (s) => s.matches('showing'))
    actor.send({ type: 'BACK' })
    await waitFor(actor, (s) => s.matches('showing') && s.context.stepIndex === 0)
    expect(browser.url).toBe('/q/zip')
    expect(browser.historyLength).toBe(1)
  })

  it('typing and submitting while the on-enter demand check runs are kept, then handled', async () => {
    let answer: (r: { bid: number; isLowBid: boolean }) => void = () => {}
    const browser = new FakeBrowser('/q/zip')
    const deps = {
      ...browser.deps(),
      demandCheck: () => new Promise<{ bid: number; isLowBid: boolean }>((r) => (answer = r)),
    }
    const slow = { ...zipStep, onEnter: { type: 'demand-check' as const } }
    const actor = createActor(funnelMachineWith(deps), {
      input: {
        funnel: funnel({ steps: [slow, yesStep] }),
        page,
        stepParam: 'zip',
        basePath: '/q',
        search: '',
      },
    }).start()
    expect(actor.getSnapshot().value).toBe('entering')
    actor.send({ type: 'CHANGE', name: 'zipcode', value: '90210' })
    actor.send({ type: 'SUBMIT' })
    expect(actor.getSnapshot().context.values.zipcode).toBe('90210')
    await new Promise((r) => setTimeout(r, 0)) // let the on-enter actor ask for demand
    answer({ bid: 20, isLowBid: false })
    await waitFor(actor, (s) => s.matches('showing') && s.context.stepIndex === 1)
    expect(browser.url).toBe('/q/medicare')
    expect(actor.getSnapshot().context.demand).toEqual({ bid: 20, isLowBid: false })
  })

  it('set-field actions store their answer in both buckets', async () => {
    const setter = {
      ...zipStep,
      onSubmit: { type: 'set-field' as const, field: 'homeowner' as const, value: true },
    }
    const { actor, browser } = await run(funnel({ steps: [setter, yesStep] }))
    actor.send({ type: 'SUBMIT', values: { zipcode: '90210' } })
    await waitFor(actor, (s) => s.matches('showing') && s.context.stepIndex === 1)
    expect(actor.getSnapshot().context.values).toMatchObject({ zipcode: '90210', homeowner: true })
    expect(browser.store.get('funnelworks:form:v1')).toEqual({ zipcode: '90210', homeowner: true })
    expect(browser.store.get('funnelworks:form:shared')).toEqual({ zipcode: '90210', homeowner: true })
  })

  it('CHANGE updates the answer, clears its message and tells listeners', async () => {
    const { actor, browser } = await run(funnel())
    actor.send({ type: 'SUBMIT' })
    expect(actor.getSnapshot().context.errors.zipcode).toBe('Enter a 5-digit ZIP code')
    actor.send({ type: 'CHANGE', name: 'zipcode', value: '9021' })
    expect(actor.getSnapshot().context.errors.zipcode).toBeUndefined()
    expect(browser.changes.at(-1)).toEqual(['zipcode'])
  })
})
