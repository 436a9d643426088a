import { describe, expect, it } from 'vitest'
import type { Experiment } from '../../schemas/generated/experiment'
import { EXPERIMENT_PREVIEW_PARAM } from '../constants'
import type { PageEntry } from '../snapshot/types'
import {
  applyVariant,
  chooseVariant,
  experimentCookieName,
  pickVariant,
  runningExperimentFor,
} from './variants'

const experiment: Experiment = {
  id: 'grocery-headline',
  description: 'test',
  page: 'grocery',
  status: 'running',
  variants: [
    { id: 'control', weight: 20 },
    { id: 'off', weight: 0, overrides: { headline: 'never shown' } },
    { id: 'question', weight: 80, overrides: { headline: 'A question?', cta: { label: 'Ask' } } },
  ],
}

describe('pickVariant', () => {
  it('gives each variant its share of [0, 1) and never a weight-0 variant', () => {
    expect(pickVariant(experiment, () => 0).id).toBe('control')
    expect(pickVariant(experiment, () => 0.1999).id).toBe('control')
    expect(pickVariant(experiment, () => 0.2).id).toBe('question')
    expect(pickVariant(experiment, () => 0.9999999).id).toBe('question')
  })

  it('splits many visitors by weight', () => {
    let seed = 42
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    const counts: Record<string, number> = {}
    for (let i = 0; i < 10_000; i++) {
      const id = pickVariant(experiment, random).id
      counts[id] = (counts[id] ?? 0) + 1
    }
    expect(counts.off).toBeUndefined()
    expect(counts.control! / 10_000).toBeGreaterThan(0.18)
    expect(counts.control! / 10_000).toBeLessThan(0.22)
  })
})

describe('chooseVariant', () => {
  const cookieOf = (value?: string) => (name: string) =>
    name === experimentCookieName('grocery-headline') ? value : undefined

  it('keeps a returning visitor in their variant', () => {
    const c = chooseVariant(experiment, { search: '', cookie: cookieOf('control') }, () => 0.99)
    expect(c).toMatchObject({ variant: { id: 'control' }, source: 'cookie' })
  })

  it('picks anew when the cookie names no variant with a share', () => {
    for (const stale of ['gone', 'off', undefined]) {
      const c = chooseVariant(experiment, { search: '', cookie: cookieOf(stale) }, () => 0.5)
      expect(c).toMatchObject({ variant: { id: 'question' }, source: 'new' })
    }
  })

  it('a preview link wins over the cookie; an unknown preview is ignored', () => {
    const preview = chooseVariant(
      experiment,
      { search: `?utm_source=x&${EXPERIMENT_PREVIEW_PARAM}=question`, cookie: cookieOf('control') },
      () => 0,
    )
    expect(preview).toMatchObject({ variant: { id: 'question' }, source: 'preview' })
    const unknown = chooseVariant(
      experiment,
      { search: `?${EXPERIMENT_PREVIEW_PARAM}=nope`, cookie: cookieOf('control') },
      () => 0,
    )
    expect(unknown.source).toBe('cookie')
    // A variant without traffic (weight 0) can still be previewed.
    const off = chooseVariant(
      experiment,
      { search: `?${EXPERIMENT_PREVIEW_PARAM}=off`, cookie: cookieOf() },
      () => 0,
    )
    expect(off).toMatchObject({ variant: { id: 'off' }, source: 'preview' })
  })
})

describe('applyVariant', () => {
  const page = {
    key: 'grocery',
    headline: 'As written',
    subheadline: 'Sub',
    cta: { label: 'Start', href: '/quiz', phone: true },
  } as unknown as PageEntry

  it('replaces only the fields the variant overrides; a control leaves the page as written', () => {
    expect(applyVariant(page, experiment.variants[0]!)).toBe(page)
    const q = applyVariant(page, experiment.variants[2]!)
    expect(q).toMatchObject({ headline: 'A question?', subheadline: 'Sub' })
    // A CTA override keeps what it does not name (the link and the phone offer).
    expect(q.cta).toEqual({ label: 'Ask', href: '/quiz', phone: true })
    expect(page.headline).toBe('As written')
  })
})

describe('runningExperimentFor', () => {
  it('finds only a running experiment of the page', () => {
    const docs = (list: Experiment[]) => ({ experiment: new Map(list.map((e) => [e.id, e])) })
    expect(runningExperimentFor(docs([experiment]), 'grocery')?.id).toBe('grocery-headline')
    expect(runningExperimentFor(docs([experiment]), 'other')).toBeNull()
    expect(runningExperimentFor(docs([{ ...experiment, status: 'paused' }]), 'grocery')).toBeNull()
    expect(runningExperimentFor(docs([]), 'grocery')).toBeNull()
  })
})
