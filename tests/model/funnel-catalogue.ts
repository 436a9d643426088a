/** Every funnel definition in the repository, read through buildSnapshot, with the pages running it. */
import { resolve } from 'node:path'
import type { FunnelPageInfo } from '../../engine/funnel/funnel-deps'
import { buildSnapshot } from '../../engine/snapshot/build-snapshot'
import type { PageEntry, ResolvedFunnel, Snapshot } from '../../engine/snapshot/types'
import { readDefinitionFiles } from '../../server/content/read-definitions'

const projectRoot = resolve(import.meta.dirname, '..', '..')

export function loadSnapshot(): Snapshot {
  const result = buildSnapshot(readDefinitionFiles(resolve(projectRoot, 'definitions'), projectRoot))
  if (!result.ok)
    throw new Error(
      `definitions are invalid:\n${result.errors.map((e) => `${e.file} ${e.pointer} ${e.message}`).join('\n')}`,
    )
  return result.snapshot
}

export interface CatalogueEntry {
  funnel: ResolvedFunnel
  pages: PageEntry[]
}

export function funnelCatalogue(snapshot = loadSnapshot()): CatalogueEntry[] {
  return [...snapshot.funnels.values()].map((funnel) => ({
    funnel,
    pages: [...snapshot.pages.values()].filter((p) => p.form === funnel.id),
  }))
}

/** Page facts the machine needs; a funnel no page uses yet still gets tests with a stand-in page. */
export function pageInfo(page: PageEntry | undefined, funnel: ResolvedFunnel): FunnelPageInfo {
  return {
    name: page?.key ?? `funnel-${funnel.id}`,
    template: page?.template ?? 'funnel',
    destination: page?.destination ?? '/thank-you',
    allowExternalDestination: page?.allowExternalDestination === true,
  }
}

export interface FunnelShape extends CatalogueEntry {
  page: FunnelPageInfo
  /** The other funnels of the same shape (same steps, fields, actions and destination). */
  same: string[]
}

/**
 * The catalogue's funnels by shape: funnels whose steps (fields, actions, names) and destination are
 * the same have the same graph, so what is proved of the graph (coverage, mutants) is proved once.
 */
export function funnelShapes(catalogue = funnelCatalogue()): FunnelShape[] {
  const byShape = new Map<string, FunnelShape>()
  for (const entry of catalogue) {
    const page = pageInfo(entry.pages[0], entry.funnel)
    const key = JSON.stringify([entry.funnel.steps, page.destination, page.allowExternalDestination])
    const known = byShape.get(key)
    if (known) known.same.push(entry.funnel.id)
    else byShape.set(key, { ...entry, page, same: [] })
  }
  return [...byShape.values()]
}
