import { CONTROL_CENTER_BRAND_ID, EXPERIMENT_PREVIEW_PARAM, PRIMITIVES_PATH } from '../../engine/constants'
import {
  applyVariant,
  chooseVariant,
  type ExperimentAssignment,
  experimentCookieName,
  runningExperimentFor,
} from '../../engine/experiments/variants'
import { phoneRulesForPage } from '../../engine/phone/select-phone-rule'
import { errorInfo, noRouteMatch, routeValidationFailed } from '../../engine/render/error-info'
import type { Resolution, ThirdPartyConfig } from '../../engine/render/resolution'
import { siteNameFor } from '../../engine/render/site-name'
import { matchRoute } from '../../engine/routing/match-route'
import {
  buildHostIndex,
  type HostIndex,
  isBareLocalHost,
  resolveBrandId,
} from '../../engine/routing/resolve-brand'
import { runRouteChecks } from '../../engine/routing/route-middleware'
import type { Brand, PageEntry, Snapshot } from '../../engine/snapshot/types'
import type { PhoneRule } from '../../schemas/generated/phone-rule'
import { TEMPLATES } from './templates'

const hostIndexes = new WeakMap<Snapshot, HostIndex>()
function hostIndexFor(snapshot: Snapshot): HostIndex {
  let idx = hostIndexes.get(snapshot)
  if (!idx) {
    idx = buildHostIndex([...snapshot.brands.values()])
    hostIndexes.set(snapshot, idx)
  }
  return idx
}

/** Host → brand id, resolved once per request (app.ts keeps it in ctx.state.brandId). */
export function brandIdForHost(snapshot: Snapshot, host: string | undefined): string | null {
  return resolveBrandId(hostIndexFor(snapshot), host) ?? null
}

export interface RequestFacts {
  host: string | undefined
  /** The brand the host names (brandIdForHost), or null. */
  brandId: string | null
  pathname: string
  search: string
  /** Port the server listens on, for brand-index links. */
  port: number
  /** The request's cookies (a running experiment keeps a visitor in their variant by cookie). */
  cookie?: (name: string) => string | undefined
}

export interface ResolveOptions {
  brandIndex: boolean
  thirdParty: ThirdPartyConfig
  /** Weighted variant picks for new visitors; Math.random unless a test needs a fixed one. */
  random?: () => number
  /**
   * A staff branch preview: `?fw_variant=` also shows a variant of the page's experiment that is not
   * running yet (draft or paused), so each variant can be looked at before Start.
   */
  branchPreview?: boolean
}

/** What the server must remember for the visitor: a variant given for the first time. */
export interface NewAssignment {
  cookie: string
  variant: string
}

/** The fields every resolution of a brand has (the control center builds its own on top). */
export function resolutionBase(
  snapshot: Snapshot,
  brand: Brand | null,
  page: PageEntry | null,
  facts: RequestFacts,
  opts: ResolveOptions,
) {
  return {
    snapshotId: snapshot.id,
    site: {
      name: siteNameFor(snapshot.site, brand, page),
      faviconSrc: brand?.favicon.src ?? snapshot.site.favicon.src,
      gtmId: brand?.tagManagerId ?? snapshot.site.gtmId,
    },
    brand,
    pathname: facts.pathname,
    search: facts.search,
    // The control center (internal brand) serves no insurance ad script: it is no public site.
    thirdParty: brand?.vertical === 'internal' ? { ...opts.thirdParty, adScriptUrl: null } : opts.thirdParty,
    phoneRules: brand ? phoneRulesForPage(phoneRulesOf(snapshot), brand.id, page?.key ?? null) : [],
  }
}

function phoneRulesOf(snapshot: Snapshot): PhoneRule[] {
  return [...snapshot.documents.phoneRule.values()]
}

/** Host + path → what to render, with its status. Never throws for visitor input. */
export function resolveRequest(snapshot: Snapshot, facts: RequestFacts, opts: ResolveOptions): Resolution {
  const { brandId } = facts
  if (!brandId) {
    if (opts.brandIndex && isBareLocalHost(facts.host) && facts.pathname === '/') {
      return {
        ...resolutionBase(snapshot, null, null, facts, opts),
        view: 'brand-index',
        pageId: 'brand-index',
        statusCode: 200,
        page: null,
        params: {},
        brandIndex: [...snapshot.brands.values()].map((b) => ({
          id: b.id,
          name: b.fallbackName ?? b.name,
          vertical: b.vertical,
          href: `http://${b.id}.localhost${facts.port && facts.port !== 80 ? `:${facts.port}` : ''}/`,
        })),
      }
    }
    return errorResolution(snapshot, null, facts, opts, noRouteMatch(facts.pathname))
  }
  const brand = snapshot.brands.get(brandId)!
  // The primitives style guide (docs/decisions/0500): only on the control center, so its code never
  // reaches a public brand's bundle.
  if (facts.pathname === PRIMITIVES_PATH && brandId === CONTROL_CENTER_BRAND_ID)
    return {
      ...resolutionBase(snapshot, brand, null, facts, opts),
      view: 'primitives',
      pageId: 'primitives',
      statusCode: 200,
      page: null,
      params: {},
    }
  const match = matchRoute(snapshot, brandId, facts.pathname)
  if (!match) return errorResolution(snapshot, brand, facts, opts, noRouteMatch(facts.pathname))
  const ok = runRouteChecks(match.page.validate as never, {
    params: match.params,
    query: new URLSearchParams(facts.search),
    documents: snapshot.documents,
  })
  if (!ok) return errorResolution(snapshot, brand, facts, opts, routeValidationFailed(facts.pathname))
  const { page, experiment } = withExperiment(snapshot, match.page, facts, opts)
  const template = TEMPLATES[page.template]
  return {
    ...resolutionBase(snapshot, brand, page, facts, opts),
    view: page.template === 'funnel' ? 'funnel' : 'content',
    pageId: template.page,
    statusCode: 200,
    page,
    params: match.params,
    ...(experiment ? { experiment } : {}),
    ...template.load?.(snapshot, page, match.params, brandId),
  }
}

/** The page as the visitor's variant of its running experiment shows it (docs/decisions/0105). */
function withExperiment(snapshot: Snapshot, page: PageEntry, facts: RequestFacts, opts: ResolveOptions) {
  const running =
    runningExperimentFor(snapshot.documents, page.key) ??
    (opts.branchPreview ? previewedExperimentFor(snapshot, page.key, facts.search) : null)
  if (!running) return { page, experiment: undefined }
  const choice = chooseVariant(
    running,
    { search: facts.search, cookie: facts.cookie ?? (() => undefined) },
    opts.random ?? Math.random,
  )
  const experiment: ExperimentAssignment = {
    id: running.id,
    variant: choice.variant.id,
    ...(choice.source === 'preview' ? { preview: true as const } : {}),
  }
  return { page: applyVariant(page, choice.variant), experiment }
}

/** In a branch preview, the page's not-running experiment whose variant `?fw_variant=` names. */
function previewedExperimentFor(snapshot: Snapshot, pageKey: string, search: string) {
  const wanted = new URLSearchParams(search).get(EXPERIMENT_PREVIEW_PARAM)
  if (!wanted) return null
  for (const doc of snapshot.documents.experiment.values())
    if (doc.page === pageKey && doc.variants.some((v) => v.id === wanted)) return doc
  return null
}

/**
 * The cookie to set after rendering: a visitor seeing a variant they do not have yet keeps it, except
 * when a staff preview link (`?fw_variant=`) chose it.
 */
export function assignmentToKeep(resolution: Resolution, facts: RequestFacts): NewAssignment | null {
  const a = resolution.experiment
  if (!a || a.preview) return null
  const cookie = experimentCookieName(a.id)
  if (facts.cookie?.(cookie) === a.variant) return null
  return { cookie, variant: a.variant }
}

export function errorResolution(
  snapshot: Snapshot,
  brand: Brand | null,
  facts: RequestFacts,
  opts: ResolveOptions,
  error = errorInfo(),
): Resolution {
  return {
    ...resolutionBase(snapshot, brand, null, facts, opts),
    view: 'error',
    pageId: 'error',
    statusCode: error.statusCode,
    page: null,
    params: {},
    error,
  }
}
