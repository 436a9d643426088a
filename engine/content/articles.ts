import type { Article } from '../../schemas/generated/article'
import type { Author } from '../../schemas/generated/author'
import type { Snapshot } from '../snapshot/types'

/** The URL part after /reviews/ for an article: its `slug`, or its id. */
export function articleSlug(article: Pick<Article, 'id' | 'slug'>): string {
  return article.slug ?? article.id
}

/** The article's Markdown: a string, or a list of lines joined with newlines. */
export function articleMarkdown(article: Pick<Article, 'body'>): string {
  return Array.isArray(article.body) ? article.body.join('\n') : article.body
}

type Documents = Snapshot['documents']

export function articlesOf(documents: Documents): Article[] {
  return [...documents.article.values()]
}

export function findArticleBySlug(documents: Documents, slug: string): Article | undefined {
  return articlesOf(documents).find((a) => articleSlug(a) === slug)
}

export function authorOf(documents: Documents, id: string): Author | undefined {
  return documents.author.get(id)
}

/** Newest first, then by title, for lists. */
export function articlesNewestFirst(documents: Documents): Article[] {
  return articlesOf(documents).sort((a, b) => b.date.localeCompare(a.date) || a.title.localeCompare(b.title))
}

export type { Article, Author }
