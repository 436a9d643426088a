import { describe, expect, it } from 'vitest'
import { funnelCatalogue, pageInfo } from '../../tests/model/funnel-catalogue'
import type { ResolvedFunnel } from '../snapshot/types'
import { migrateAnswers } from './migrate-answers'
import { placeVisitor, resumePoint } from './resume'

const catalogue = funnelCatalogue()
const byId = (id: string) => catalogue.find((c) => c.funnel.id === id)!
const otc = byId('quiz-otc').funnel
const page = pageInfo(byId('quiz-otc').pages[0], otc)
const names = (f: ResolvedFunnel, idx: number[]) => idx.map((i) => f.steps[i].name)

describe('resume across revisions (docs/decisions/0220)', () => {
  it('lands on the first unanswered step with the answers kept', async () => {
    const r = await resumePoint(otc, page, { zipcode: '90210', haveMedicare: true })
    expect(otc.steps[r.stepIndex].name).toBe('medicaid')
    expect(r.values).toMatchObject({ zipcode: '90210', haveMedicare: true })
    expect(names(otc, r.answered)).toEqual(['zip', 'medicare'])
  })

  it('a step inserted before the third is the one shown; the earlier answers stay', async () => {
    const inserted: ResolvedFunnel = {
      ...otc,
      steps: [
        otc.steps[0],
        otc.steps[1],
        { ...byId('quiz-auto').funnel.steps[1], name: 'new-step' },
        ...otc.steps.slice(2),
      ],
    }
    const answers = { zipcode: '90210', haveMedicare: true, haveMedicaid: false }
    const r = await resumePoint(inserted, page, answers)
    expect(inserted.steps[r.stepIndex].name).toBe('new-step')
    expect(r.values).toMatchObject(answers)
  })

  it('an answer whose field changed kind, or whose option is gone, is dropped; others stay', () => {
    const changed: ResolvedFunnel = {
      ...otc,
      steps: otc.steps.map((s) =>
        s.name === 'medicare'
          ? {
              ...s,
              fields: [
                {
                  ...s.fields[0],
                  kind: 'choice' as const,
                  options: [
                    { value: 'a', label: 'A' },
                    { value: 'b', label: 'B' },
                  ] as [{ value: string; label: string }, { value: string; label: string }],
                },
              ],
            }
          : s,
      ),
    }
    expect(migrateAnswers(changed, { zipcode: '90210', haveMedicare: true, employer: 'x' } as never)).toEqual(
      {
        zipcode: '90210',
        employer: 'x',
      },
    )
  })

  it('an invalid stored answer stops at its step; the consent step and the last step are never submitted', async () => {
    const bad = await resumePoint(otc, page, { zipcode: '9021', haveMedicare: true })
    expect(otc.steps[bad.stepIndex].name).toBe('zip')
    const all = await resumePoint(otc, page, {
      zipcode: '90210',
      haveMedicare: true,
      haveMedicaid: false,
      firstName: 'Ana',
      lastName: 'Diaz',
      email: 'ana@example.com',
      phone: '(312) 555-0142',
    })
    expect(otc.steps[all.stepIndex].name).toBe('contact')
  })

  it('the route follows the actions: an answer that jumps skips the steps in between', async () => {
    const auto = byId('quiz-auto').funnel
    const autoPage = pageInfo(byId('quiz-auto').pages[0], auto)
    const insured = auto.steps.findIndex((s) => s.name === 'insured')
    if (insured < 0) return
    const before = Object.fromEntries(
      auto.steps
        .slice(0, insured)
        .flatMap((s) =>
          s.fields.map((f) => [
            f.name,
            f.kind === 'yes-no'
              ? true
              : f.kind === 'zip'
                ? '90210'
                : f.kind === 'choice'
                  ? f.options![0].value
                  : 'x',
          ]),
        ),
    )
    const r = await resumePoint(auto, autoPage, { ...before, currentlyInsured: false })
    expect(r.answered).toContain(insured)
    expect(auto.steps[r.stepIndex].name).toBe('homeowner')
  })
})

describe('where a visitor stands when a request names a step (docs/decisions/0230)', () => {
  const full = {
    zipcode: '90210',
    haveMedicare: true,
    haveMedicaid: false,
    firstName: 'Ada',
    lastName: 'Byron',
    email: 'ada@example.com',
    phone: '(555) 201-3344',
  }
  const at = (name: string) => otc.steps.findIndex((s) => s.name === name)

  it('stays on a step the route reaches: Back, a reload, the last step after the phone step', async () => {
    for (const name of ['zip', 'medicare', 'name', 'contact'])
      expect((await placeVisitor(otc, page, full, at(name))).stepIndex).toBe(at(name))
  })

  it('goes to the first step the route needs before a step it does not reach yet', async () => {
    const r = await placeVisitor(otc, page, { zipcode: '90210' }, at('contact'))
    expect(otc.steps[r.stepIndex].name).toBe('medicare')
  })

  it('after a step is added before the visitor, that step; a URL without a step, the resume point', async () => {
    const inserted: ResolvedFunnel = {
      ...otc,
      steps: [
        otc.steps[0],
        { ...byId('quiz-auto').funnel.steps[1], name: 'new-step' },
        ...otc.steps.slice(1),
      ],
    }
    const r = await placeVisitor(inserted, page, full, inserted.steps.length - 1)
    expect(inserted.steps[r.stepIndex].name).toBe('new-step')
    const fresh = await placeVisitor(otc, page, full, null)
    expect(otc.steps[fresh.stepIndex].name).toBe('contact')
  })
})
