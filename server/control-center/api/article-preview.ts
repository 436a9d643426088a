/**
 * The articles editor's server side (CONTROL-CENTER §1.4 `/articles`, §3 "Article"):
 * - GET  /api/cc/branches/:b/articles: every article of the branch (my drafts laid over) with its
 *   problems, the authors, and the URL pattern of each brand that serves articles;
 * - POST /api/cc/branches/:b/article-preview: an unsaved article rendered by the published article
 *   page's own path (resolveRequest → the `article` template's loader → articleView and its
 *   sanitiser → the Vike page), so the preview is the page's HTML, not a look-alike
 *   (docs/decisions/0940).
 */
import type Router from '@koa/router'
import type { Context } from 'koa'
import { CC_BODY_LIMIT_BYTES } from '../../../engine/constants'
import { articleSlug } from '../../../engine/content/articles'
import type { Resolution } from '../../../engine/render/resolution'
import type { Snapshot } from '../../../engine/snapshot/types'
import type { Article } from '../../../schemas/generated/article'
import type {
  ArticleListData,
  ArticlePreviewData,
  ArticleRow,
  ArticleServing,
} from '../../../schemas/generated/cc-answers/articles'
import type { AppDeps } from '../../app-deps'
import { HttpError } from '../../http/http-error'
import { readJsonBody } from '../../http/read-json'
import { articleView } from '../../render/article-view'
import { buildIdFor } from '../../render/builds'
import { resolveRequest } from '../../render/resolve-request'
import { CSP_NONCE_PLACEHOLDER, renderVikePage } from '../../render/vike-render'
import { type Cc, ccRoute } from './cc-route'

const parse = (text: string | null): unknown => {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}
const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v)

/** A page path's catch-all parameter (`/reviews/{slug...}`): where an article's slug goes. */
const CATCH_ALL = /\{\w+\.\.\.\}/

/** The brands whose article page (template `article` with a catch-all) serves articles, and where. */
function servingOf(pages: { template: string; path: string; brands: string[] }[]): ArticleServing[] {
  return pages.flatMap((p) =>
    p.template === 'article' && CATCH_ALL.test(p.path)
      ? p.brands.map((brand) => ({ brand, pattern: p.path }))
      : [],
  )
}

/**
 * The snapshot to preview on: the branch head's (cached by commit, so a preview costs only the render;
 * the article itself is the posted draft), else live when the branch does not build.
 */
async function previewSnapshot(deps: AppDeps, { content }: Cc, branch: string): Promise<Snapshot> {
  const head = await content.branches.snapshot(branch)
  return head.result.ok ? head.result.snapshot : deps.snapshots.current
}

/** The snapshot with this article in place of the one with its id (first, so its slug wins). */
function withArticle(snapshot: Snapshot, article: Article): Snapshot {
  const others = [...snapshot.documents.article].filter(([id]) => id !== article.id)
  return {
    ...snapshot,
    documents: { ...snapshot.documents, article: new Map([[article.id, article], ...others]) },
  }
}

/** The posted document as an article the template can show: 400 naming the field when it cannot. */
function articleFrom(value: unknown): Article {
  if (!isObject(value) || !isObject(value.article))
    throw new HttpError(400, '/article: send the article as an object')
  const a = value.article
  const body = a.body
  if (!(typeof body === 'string' || (Array.isArray(body) && body.every((l) => typeof l === 'string'))))
    throw new HttpError(400, '/article/body: must be Markdown, a string or a list of lines')
  const str = (k: string) => (typeof a[k] === 'string' ? (a[k] as string) : '')
  const id = str('id') || 'preview'
  const image =
    isObject(a.image) && typeof a.image.src === 'string'
      ? (a.image as unknown as Article['image'])
      : undefined
  return {
    id,
    ...(str('slug') ? { slug: str('slug') } : {}),
    title: str('title'),
    description: str('description'),
    author: str('author'),
    date: str('date') || new Date().toISOString().slice(0, 10),
    ...(str('updated') ? { updated: str('updated') } : {}),
    carrier: str('carrier'),
    ...(image ? { image } : {}),
    body: body as Article['body'],
  }
}

/** The full article page as the brand serves it, or null when this server has no page renderer. */
async function renderDocument(resolution: Resolution): Promise<string | null> {
  try {
    const ctx = await renderVikePage({
      urlOriginal: resolution.pathname,
      headersOriginal: {},
      resolution: { ...resolution, search: '', buildId: buildIdFor(resolution.snapshotId) },
      cspNonce: CSP_NONCE_PLACEHOLDER,
    })
    const r = ctx.httpResponse
    if (r?.statusCode !== 200 || ctx.errorWhileRendering) return null
    return r.body
  } catch {
    return null
  }
}

export function registerArticleApi(router: Router, deps: AppDeps): void {
  router.get(
    '/api/cc/branches/:b/articles',
    ccRoute(deps, 'ArticleListData', async (ctx, { user, content }): Promise<ArticleListData> => {
      const branch = ctx.params.b
      const { head, files } = await content.queries.files(branch, user)
      const { errors } = await content.queries.errors(branch, user)
      const drafts = new Map((await content.branches.drafts(user.id, branch)).map((d) => [d.path, d.text]))
      const read = async (path: string) =>
        drafts.has(path) ? (drafts.get(path) ?? null) : content.repository.repo.readText(`${head}:${path}`)
      const articles: ArticleRow[] = []
      const authors: ArticleListData['authors'] = []
      for (const f of files) {
        if (f.state === 'deleted') continue
        if (f.kind === 'article') {
          const doc = parse(await read(f.path))
          articles.push({
            path: f.path,
            id: f.id,
            state: f.state,
            draft: f.draft,
            problems: f.problems,
            article: isObject(doc) ? (doc as unknown as Article) : null,
            errors: errors.filter((e) => e.file === f.path),
          })
        } else if (f.kind === 'author') {
          const doc = parse(await read(f.path))
          const id = isObject(doc) && typeof doc.id === 'string' ? doc.id : f.id
          authors.push({ id, name: isObject(doc) && typeof doc.name === 'string' ? doc.name : id })
        }
      }
      const serving = servingOf(
        files
          .filter((f) => f.kind === 'page' && f.page && f.state !== 'deleted')
          .map((f) => ({
            template: f.page!.template ?? '',
            path: f.page!.path ?? `/${f.page!.key}`,
            brands: f.page!.brands,
          })),
      )
      return { head, articles, authors, serving }
    }),
  )

  router.post(
    '/api/cc/branches/:b/article-preview',
    ccRoute(deps, 'ArticlePreviewData', async (ctx: Context, cc): Promise<ArticlePreviewData> => {
      const body = await readJsonBody(ctx, CC_BODY_LIMIT_BYTES)
      const article = articleFrom(body)
      const asked = isObject(body) && typeof body.brand === 'string' ? body.brand : null
      const snapshot = withArticle(await previewSnapshot(deps, cc, ctx.params.b), article)
      const serving = servingOf(
        [...snapshot.pages.values()].map((p) => ({ template: p.template, path: p.path, brands: p.brands })),
      ).filter((s) => snapshot.brands.has(s.brand))
      const at = (asked ? serving.find((s) => s.brand === asked) : serving[0]) ?? null
      if (asked && !at) throw new HttpError(400, `/brand: brand "${asked}" serves no article page`)
      if (!at) {
        // No brand serves articles on this branch: the body alone, through the same sanitiser.
        return { brand: null, path: null, html: articleView(snapshot, article).html, page: null }
      }
      const path = at.pattern.replace(CATCH_ALL, articleSlug(article))
      const resolution = resolveRequest(
        snapshot,
        { host: `${at.brand}.localhost`, brandId: at.brand, pathname: path, search: '', port: 0 },
        {
          brandIndex: false,
          thirdParty: { tagManagerUrl: '', adScriptUrl: null, marketplace: false },
          branchPreview: true,
        },
      )
      if (!resolution.article)
        throw new HttpError(
          400,
          `/article/slug: "${articleSlug(article)}" does not make a page on ${at.brand} (${path})`,
        )
      return {
        brand: at.brand,
        path,
        html: resolution.article.html,
        page: await renderDocument(resolution),
      }
    }),
  )
}
