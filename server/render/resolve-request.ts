import { findArticleBySlug } from '../../engine/content/articles'
import {
  applyVariant,
  chooseVariant,
  type ExperimentAssignment,
  experimentCookieName,
  runningExperimentFor,
} from '../../engine/experiments/variants'
import { phoneRulesForPage } from '../../engine/phone/select-phone-rule'
import { errorInfo, noRouteMatch, routeValidationFailed } from '../../engine/render/error-info'
import type { Resolution, ThirdPartyConfig, ViewName } from '../../engine/render/resolution'
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
import { articleSummaries, articleView } from './article-view'

const hostIndexes = new WeakMap<Snapshot, HostIndex>()
export function hostIndexFor(snapshot: Snapshot): HostIndex {
  let idx = hostIndexes.get(snapshot)
  if (!idx) {
    idx = buildHostIndex([...snapshot.brands.values()])
    hostIndexes.set(snapshot, idx)
  }
  return idx
}

export interface RequestFacts {
  host: string | undefined
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
}

/** What the server must remember for the visitor: a variant given for the first time. */
export interface NewAssignment {
  cookie: string
  variant: string
}

function viewFor(page: PageEntry): ViewName {
  return page.template === 'funnel' ? 'funnel' : 'content'
}

function base(
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
  return [...((snapshot.documents.get('phoneRule')?.values() ?? []) as Iterable<PhoneRule>)]
}

/** Host + path → what to render, with its status. Never throws for visitor input. */
export function resolveRequest(snapshot: Snapshot, facts: RequestFacts, opts: ResolveOptions): Resolution {
  const brandId = resolveBrandId(hostIndexFor(snapshot), facts.host)
  if (!brandId) {
    if (opts.brandIndex && isBareLocalHost(facts.host) && facts.pathname === '/') {
      return {
        ...base(snapshot, null, null, facts, opts),
        view: 'brand-index',
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
  const match = matchRoute(snapshot, brandId, facts.pathname)
  if (!match) return errorResolution(snapshot, brand, facts, opts, noRouteMatch(facts.pathname))
  const ok = runRouteChecks(match.page.validate as never, {
    params: match.params,
    query: new URLSearchParams(facts.search),
    documents: snapshot.documents,
  })
  if (!ok) return errorResolution(snapshot, brand, facts, opts, routeValidationFailed(facts.pathname))
  const { page, experiment } = withExperiment(snapshot, match.page, facts, opts)
  const funnel = page.form ? snapshot.funnels.get(page.form) : undefined
  return {
    ...base(snapshot, brand, page, facts, opts),
    view: viewFor(page),
    statusCode: 200,
    page,
    params: match.params,
    ...(funnel ? { funnel } : {}),
    ...(experiment ? { experiment } : {}),
    ...contentFor(snapshot, page, match.params, brandId),
  }
}

/** The page as the visitor's variant of its running experiment shows it (docs/decisions/0105). */
function withExperiment(snapshot: Snapshot, page: PageEntry, facts: RequestFacts, opts: ResolveOptions) {
  const running = runningExperimentFor(snapshot.documents, page.key)
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

/** Articles for the reviews catch-all and the reviews index. */
function contentFor(snapshot: Snapshot, page: PageEntry, params: Record<string, string>, brandId: string) {
  if (page.template === 'home') {
    const topics = [...snapshot.pages.values()]
      .filter(
        (p) =>
          ['landing', 'review', 'article-index'].includes(p.template) &&
          p.indexable &&
          p.language === page.language &&
          p.brands.includes(brandId) &&
          !p.path.includes('{') &&
          p.path !== '/ads',
      )
      .map((p) => ({ href: p.path, title: p.title ?? p.headline ?? p.path, product: p.product }))
      .sort((a, b) => a.title.localeCompare(b.title))
    return { topics }
  }
  if (page.template === 'article-index') {
    const carrierReviews = [...snapshot.pages.values()]
      .filter((p) => p.template === 'review' && p.brands.some((b) => page.brands.includes(b)))
      .map((p) => ({ href: p.path, carrier: p.carrier ?? p.title ?? p.path, title: p.title ?? '' }))
      .sort((a, b) => a.carrier.localeCompare(b.carrier))
    return { articles: articleSummaries(snapshot), carrierReviews }
  }
  if (page.template === 'review' && page.relatedArticles?.length)
    return { relatedArticles: articleSummaries(snapshot, page.relatedArticles) }
  if (page.template !== 'article') return {}
  const slug = Object.values(params).at(-1) ?? ''
  const article = findArticleBySlug(snapshot.documents, slug)
  if (!article) return {}
  // The article's own title and description name the document and feed the meta description.
  return {
    article: articleView(snapshot, article),
    page: { ...page, title: article.title, description: article.description },
  }
}

export function errorResolution(
  snapshot: Snapshot,
  brand: Brand | null,
  facts: RequestFacts,
  opts: ResolveOptions,
  error = errorInfo(),
): Resolution {
  return {
    ...base(snapshot, brand, null, facts, opts),
    view: 'error',
    statusCode: error.statusCode,
    page: null,
    params: {},
    error,
  }
}
