/**
 * The template table: for every page template, the Vike page that renders it (ui/pages/<page>/) and
 * the server data it needs beyond the page itself. The server decides here, once; Vike's route
 * functions only read `resolution.pageId`. A new template: its name in schemas/page.schema.json, a
 * row here, and its component (a ui/pages/<page>/ folder, or the shared `content` page).
 */
import { consentForPage } from '../../engine/consent/consent-for-page'
import { findArticleBySlug } from '../../engine/content/articles'
import type { PageId, Resolution } from '../../engine/render/resolution'
import type { RouteParams } from '../../engine/routing/route-pattern'
import type { Page, PageEntry, Snapshot } from '../../engine/snapshot/types'
import { articleSummaries, articleView } from './article-view'

type Template = Page['template']

/** What a template adds to the resolution, from the snapshot. */
type Loader = (
  snapshot: Snapshot,
  page: PageEntry,
  params: RouteParams,
  brandId: string,
) => Partial<Resolution>

export const TEMPLATES: Record<Template, { page: PageId; load?: Loader }> = {
  landing: { page: 'content' },
  'control-center': { page: 'content' },
  funnel: { page: 'funnel', load: funnelOf },
  home: { page: 'content-home', load: homeTopics },
  legal: { page: 'content-legal' },
  'thank-you': { page: 'content-thank-you' },
  review: { page: 'content-review', load: relatedArticles },
  'article-index': { page: 'content-article-index', load: articleIndex },
  article: { page: 'content-article', load: articleBySlug },
}

/** Template `funnel`: the funnel, and the consent text its phone step shows on this brand. */
function funnelOf(snapshot: Snapshot, page: PageEntry, _params: RouteParams, brandId: string) {
  const funnel = page.form ? snapshot.funnels.get(page.form) : undefined
  if (!funnel) return {}
  const brand = snapshot.brands.get(brandId)
  const consent = brand && consentForPage(snapshot, page, brand)
  return consent ? { funnel, consent } : { funnel }
}

/** Template `home`: the brand's indexable landing pages, to browse by topic. */
function homeTopics(snapshot: Snapshot, page: PageEntry, _params: RouteParams, brandId: string) {
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

/** Template `article-index`: every article, and the brand's carrier review pages. */
function articleIndex(snapshot: Snapshot, page: PageEntry) {
  const carrierReviews = [...snapshot.pages.values()]
    .filter((p) => p.template === 'review' && p.brands.some((b) => page.brands.includes(b)))
    .map((p) => ({ href: p.path, carrier: p.carrier ?? p.title ?? p.path, title: p.title ?? '' }))
    .sort((a, b) => a.carrier.localeCompare(b.carrier))
  return { articles: articleSummaries(snapshot), carrierReviews }
}

/** Template `review`: the page's related articles. */
function relatedArticles(snapshot: Snapshot, page: PageEntry) {
  return page.relatedArticles?.length
    ? { relatedArticles: articleSummaries(snapshot, page.relatedArticles) }
    : {}
}

/** Template `article`: the article the last path parameter names. */
function articleBySlug(snapshot: Snapshot, page: PageEntry, params: RouteParams) {
  const slug = Object.values(params).at(-1) ?? ''
  const article = findArticleBySlug(snapshot.documents, slug)
  if (!article) return {}
  // The article's own title and description name the document and feed the meta description.
  return {
    article: articleView(snapshot, article),
    page: { ...page, title: article.title, description: article.description },
  }
}
