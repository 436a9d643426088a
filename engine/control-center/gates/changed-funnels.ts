/**
 * Which funnels a publish changes, and where they run: the gates look at these only (CONTROL-CENTER
 * §7). A funnel changed when its *resolved* definition (steps with their overrides applied, and the
 * form version) differs from live, whichever file the change was made in: a shared step edited in
 * definitions/steps/ changes every funnel that uses it without an override shadowing it.
 */
import type { FunnelPageInfo } from '../../funnel/funnel-deps'
import type { PageEntry, ResolvedFunnel, Snapshot } from '../../snapshot/types'
import { sha256Hex } from '../../util/sha256'

/** JSON with object keys sorted, so key order in a file never makes two equal definitions differ. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(value)
}

/** What the gates judge of a funnel: its id, form version and resolved steps (not its texts). */
export function funnelHash(funnel: ResolvedFunnel): string {
  return sha256Hex(canonicalJson({ id: funnel.id, formVersion: funnel.formVersion, steps: funnel.steps }))
}

/** Funnels of `candidate` that are new or resolve differently from `live` (all of them without live). */
export function changedFunnels(live: Snapshot | null, candidate: Snapshot): ResolvedFunnel[] {
  return [...candidate.funnels.values()].filter((f) => {
    const before = live?.funnels.get(f.id)
    return !before || funnelHash(before) !== funnelHash(f)
  })
}

/** The file a funnel lives in, relative to the repository root. */
export const funnelFile = (id: string) => `definitions/funnels/${id}.json`

/** A page that runs a funnel: as its `form`, or through an experiment variant's `form` override. */
export interface FunnelPageUse {
  page: PageEntry
  experiment?: { id: string; variant: string; status: string }
}

export function pagesRunning(snapshot: Snapshot, funnelId: string): FunnelPageUse[] {
  const out: FunnelPageUse[] = [...snapshot.pages.values()]
    .filter((p) => p.form === funnelId)
    .map((page) => ({ page }))
  for (const e of snapshot.documents.experiment.values())
    for (const v of e.variants)
      if (v.overrides?.form === funnelId) {
        const page = snapshot.pages.get(e.page)
        if (page) out.push({ page, experiment: { id: e.id, variant: v.id, status: e.status } })
      }
  return out
}

/** The facts of a page the funnel machine uses; a funnel no page runs gets a stand-in. */
export function pageFacts(page: PageEntry | undefined, funnel: ResolvedFunnel): FunnelPageInfo {
  return {
    name: page?.key ?? `funnel-${funnel.id}`,
    template: page?.template ?? 'funnel',
    destination: page?.destination ?? '/thank-you',
    allowExternalDestination: page?.allowExternalDestination === true,
  }
}

/**
 * The distinct page facts a funnel runs with (pages with the same destination behave the same),
 * each with the keys of the pages that share them.
 */
export function pageGroups(
  snapshot: Snapshot,
  funnel: ResolvedFunnel,
): { facts: FunnelPageInfo; pages: string[] }[] {
  const uses = pagesRunning(snapshot, funnel.id)
  if (uses.length === 0) return [{ facts: pageFacts(undefined, funnel), pages: [] }]
  const groups = new Map<string, { facts: FunnelPageInfo; pages: string[] }>()
  for (const { page } of uses) {
    const facts = pageFacts(page, funnel)
    const key = `${facts.destination} ${facts.allowExternalDestination}`
    const g = groups.get(key) ?? { facts, pages: [] }
    if (!g.pages.includes(page.key)) g.pages.push(page.key)
    groups.set(key, g)
  }
  return [...groups.values()]
}
