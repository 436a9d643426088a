/**
 * What a shared step's change reaches (CONTROL-CENTER §7 item 3): the funnels that use the step and
 * resolve differently because of it (a funnel whose `overrides` shadow every changed field does not),
 * the pages running those funnels with their brands, and the experiments on those pages, including
 * variants that run another funnel (`form`). Visits per page come from the server (events store).
 */
import type { ResolvedFunnel, Snapshot } from '../../snapshot/types'
import { canonicalJson, pagesRunning } from './changed-funnels'

export interface ImpactPage {
  page: string
  path: string
  brands: string[]
  funnel: string
  /** Set when the page runs the funnel only in an experiment variant. */
  experiment?: { id: string; variant: string; status: string }
}

export interface ImpactExperiment {
  id: string
  page: string
  status: string
  variants: { id: string; weight: number; form?: string }[]
}

export interface StepImpact {
  step: string
  file: string
  status: 'added' | 'changed' | 'removed'
  /** Top-level fields of the step document that changed. */
  changedFields: string[]
  /** Funnels that resolve differently because of the change. */
  funnels: string[]
  /** Funnels that use the step but whose overrides shadow every changed field. */
  shadowed: string[]
  pages: ImpactPage[]
  brands: string[]
  experiments: ImpactExperiment[]
  /** "Shared by 3 funnels on 4 brands". */
  summary: string
}

const stepFile = (id: string) => `definitions/steps/${id}.json`

function changedKeys(a: object | undefined, b: object | undefined): string[] {
  const x = (a ?? {}) as Record<string, unknown>
  const y = (b ?? {}) as Record<string, unknown>
  return [...new Set([...Object.keys(x), ...Object.keys(y)])]
    .filter((k) => k !== '$schema' && canonicalJson(x[k]) !== canonicalJson(y[k]))
    .sort()
}

const stepsOf = (f: ResolvedFunnel | undefined, id: string) =>
  canonicalJson(f?.steps.filter((s) => s.stepId === id) ?? [])

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** The impact of every step document that differs between live and the candidate. */
export function stepImpact(live: Snapshot | null, candidate: Snapshot): StepImpact[] {
  const ids = new Set([...candidate.steps.keys(), ...(live?.steps.keys() ?? [])])
  const out: StepImpact[] = []
  for (const id of [...ids].sort()) {
    const before = live?.steps.get(id)
    const after = candidate.steps.get(id)
    const changedFields = changedKeys(before, after)
    if (changedFields.length === 0) continue
    const using = [...candidate.funnels.values()].filter((f) => f.steps.some((s) => s.stepId === id))
    const funnels = using.filter((f) => stepsOf(live?.funnels.get(f.id), id) !== stepsOf(f, id))
    const shadowed = using.filter((f) => !funnels.includes(f)).map((f) => f.id)
    const pages: ImpactPage[] = funnels.flatMap((f) =>
      pagesRunning(candidate, f.id).map(({ page, experiment }) => ({
        page: page.key,
        path: page.path,
        brands: [...page.brands],
        funnel: f.id,
        ...(experiment ? { experiment } : {}),
      })),
    )
    const pageKeys = new Set(pages.map((p) => p.page))
    const experiments: ImpactExperiment[] = [...candidate.documents.experiment.values()]
      .filter((e) => pageKeys.has(e.page))
      .map((e) => ({
        id: e.id,
        page: e.page,
        status: e.status,
        variants: e.variants.map((v) => ({
          id: v.id,
          weight: v.weight,
          ...(v.overrides?.form ? { form: v.overrides.form } : {}),
        })),
      }))
    const brands = [...new Set(pages.flatMap((p) => p.brands))].sort()
    out.push({
      step: id,
      file: stepFile(id),
      status: !before ? 'added' : !after ? 'removed' : 'changed',
      changedFields,
      funnels: funnels.map((f) => f.id),
      shadowed,
      pages,
      brands,
      experiments,
      summary: `Shared by ${plural(funnels.length, 'funnel')} on ${plural(brands.length, 'brand')}`,
    })
  }
  return out
}
