import { Marked, type Tokens } from 'marked'
import {
  type Article,
  articleMarkdown,
  articleSlug,
  articlesNewestFirst,
  authorOf,
} from '../../engine/content/articles'
import type { ArticleSummary, ArticleView } from '../../engine/render/resolution'
import type { Snapshot } from '../../engine/snapshot/types'

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/**
 * Markdown → HTML for article bodies. Raw HTML in the Markdown is shown as text and links may only be
 * relative or https: article text may come from staff tools, and must never carry script into a page.
 */
const markdown = new Marked({
  gfm: true,
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    link(this: { parser: { parseInline(t: Tokens.Link['tokens']): string } }, token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens)
      const href = token.href.trim()
      const safe = (href.startsWith('/') && !href.startsWith('//')) || /^(https:|mailto:|#)/i.test(href)
      if (!safe) return text
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : ''
      const external = href.startsWith('https:') ? ' rel="noopener noreferrer"' : ''
      return `<a href="${escapeHtml(href)}"${title}${external}>${text}</a>`
    },
    image: ({ text }: Tokens.Image) => escapeHtml(text),
  },
})

const cache = new WeakMap<Article, string>()

export function renderArticleHtml(article: Article): string {
  let html = cache.get(article)
  if (html === undefined) {
    html = markdown.parse(articleMarkdown(article), { async: false }) as string
    cache.set(article, html)
  }
  return html
}

export function articleView(snapshot: Snapshot, article: Article): ArticleView {
  const author = authorOf(snapshot.documents, article.author)
  return {
    slug: articleSlug(article),
    title: article.title,
    description: article.description,
    date: article.date,
    ...(article.updated ? { updated: article.updated } : {}),
    carrier: article.carrier,
    author: { name: author?.name ?? '', bio: author?.bio ?? '', credentials: author?.credentials ?? [] },
    ...(article.image ? { image: article.image } : {}),
    html: renderArticleHtml(article),
  }
}

export function articleSummaries(snapshot: Snapshot, ids?: readonly string[]): ArticleSummary[] {
  const all = articlesNewestFirst(snapshot.documents)
  const chosen = ids ? all.filter((a) => ids.includes(a.id)) : all
  return chosen.map((a) => ({
    slug: articleSlug(a),
    title: a.title,
    description: a.description,
    date: a.date,
    carrier: a.carrier,
    authorName: authorOf(snapshot.documents, a.author)?.name ?? '',
  }))
}
