/**
 * Serving experiments (docs/decisions/0105): the running experiment of a page, a weighted variant for
 * a new visitor, the variant a returning visitor already has (cookie) or a staff preview (query), and
 * the page as that variant shows it.
 */
import type { Experiment, ExperimentVariant } from '../../schemas/generated/experiment'
import { EXPERIMENT_COOKIE_PREFIX, EXPERIMENT_PREVIEW_PARAM } from '../constants'
import type { PageEntry, Snapshot } from '../snapshot/types'

/** Which variant of which experiment a page was rendered as; travels in the resolution and events. */
export interface ExperimentAssignment {
  id: string
  variant: string
  /** Shown through a preview link: not an assignment, so not counted in events. */
  preview?: true
}

/** The experiment running on a page, if any (validation allows one running experiment per page). */
export function runningExperimentFor(
  documents: Pick<Snapshot['documents'], 'experiment'>,
  pageKey: string,
): Experiment | null {
  for (const doc of documents.experiment.values())
    if (doc.page === pageKey && doc.status === 'running') return doc
  return null
}

/** A variant by weight: `random()` in [0, 1) lands in a variant's share of 100; weight 0 never wins. */
export function pickVariant(experiment: Experiment, random: () => number): ExperimentVariant {
  const point = random() * 100
  let upTo = 0
  for (const v of experiment.variants) {
    upTo += v.weight
    if (v.weight > 0 && point < upTo) return v
  }
  // Rounding at the very top: the last variant with a share.
  return [...experiment.variants].reverse().find((v) => v.weight > 0) ?? experiment.variants[0]!
}

export const experimentCookieName = (experimentId: string) => `${EXPERIMENT_COOKIE_PREFIX}${experimentId}`

export interface VariantChoice {
  variant: ExperimentVariant
  /** Where it came from: `cookie` (returning visitor), `preview` (query, not kept) or `new`. */
  source: 'cookie' | 'preview' | 'new'
}

/**
 * The variant this request sees: a preview parameter naming a variant first, then the visitor's cookie,
 * then a weighted pick. A cookie naming a variant that no longer exists (or no longer has a share) is
 * ignored.
 */
export function chooseVariant(
  experiment: Experiment,
  request: { search: string; cookie: (name: string) => string | undefined },
  random: () => number,
): VariantChoice {
  const byId = (id: string | null | undefined) =>
    id ? experiment.variants.find((v) => v.id === id) : undefined
  // Any variant can be previewed, also one with weight 0 (before it gets traffic, or after).
  const preview = byId(new URLSearchParams(request.search).get(EXPERIMENT_PREVIEW_PARAM))
  if (preview) return { variant: preview, source: 'preview' }
  const kept = byId(request.cookie(experimentCookieName(experiment.id)))
  if (kept && kept.weight > 0) return { variant: kept, source: 'cookie' }
  return { variant: pickVariant(experiment, random), source: 'new' }
}

/** The page as a variant shows it: its overrides replace the page's fields (a control has none). */
export function applyVariant(page: PageEntry, variant: ExperimentVariant): PageEntry {
  const o = variant.overrides
  if (!o) return page
  return {
    ...page,
    ...(o.headline !== undefined ? { headline: o.headline } : {}),
    ...(o.subheadline !== undefined ? { subheadline: o.subheadline } : {}),
    ...(o.image !== undefined ? { image: o.image } : {}),
    ...(o.form !== undefined ? { form: o.form } : {}),
    ...(o.cta !== undefined ? { cta: { ...page.cta, ...o.cta } } : {}),
  }
}
