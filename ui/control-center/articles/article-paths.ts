/** Where articles live and where they are served (the articles screen's shared helpers). */
import type { Article } from '../../../schemas/generated/article'
import type { ArticleServing } from '../../../schemas/generated/cc-answers/articles'

export const FOLDER = 'definitions/articles/'
/** A page path's catch-all parameter (`/reviews/{slug...}`): where an article's slug goes. */
const CATCH_ALL = /\{\w+\.\.\.\}/

/** A file's state against live, in the list's words. */
export const STATE_WORDS = {
  unchanged: 'as live',
  added: 'new',
  modified: 'changed',
  deleted: 'deleted',
} as const

export const articleOf = (path: string) => path.slice(FOLDER.length).replace(/\.json$/, '')
export const pathOf = (id: string) => `${FOLDER}${id}.json`
export const slugOf = (a: Pick<Article, 'id' | 'slug'>) => a.slug || a.id
export const urlsOf = (serving: ArticleServing[], slug: string) =>
  serving.map((s) => ({ brand: s.brand, path: s.pattern.replace(CATCH_ALL, slug) }))

/** An article document as the editor holds it (possibly invalid while typed). */
export type ArticleDraft = Partial<Article> & Record<string, unknown>
