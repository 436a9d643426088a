/** The article editor's UI description (article.schema.json): metadata beside the Markdown body. */
import schema from '../../../../schemas/article.schema.json'
import type { ArticleServing } from '../../../../schemas/generated/cc-answers/articles'
import { urlsOf } from '../../articles/article-paths'
import type { UiDescription } from '../types'

const SLUG_PATTERN = new RegExp(schema.properties.slug.pattern)
const str = (v: unknown) => (typeof v === 'string' ? v : '')

export const ARTICLE_UI: UiDescription = {
  idPrefix: 'art',
  defaultTab: 'meta',
  omit: ['$schema', 'id'],
  fields: [
    { pointer: '/title', counter: true, className: 'fw-art-field fw-art-title' },
    { pointer: '/description', widget: 'longText', className: 'fw-art-field fw-art-description' },
    {
      pointer: '/slug',
      className: 'fw-art-field fw-art-slug',
      attrs: { spellCheck: 'false' },
      check: (doc) =>
        str(doc.slug) && !SLUG_PATTERN.test(str(doc.slug))
          ? 'Use lowercase letters, digits and hyphens, with / between segments (e.g. aetna/dental).'
          : null,
      after: (doc, ctx) => {
        const urls = urlsOf((ctx.serving as ArticleServing[] | undefined) ?? [], str(doc.slug) || str(doc.id))
        return (
          <small className="muted" data-testid="article-urls">
            {urls.length
              ? urls.map((u) => (
                  <span key={u.brand} className="fw-art-url-line">
                    On {u.brand}: <code>{u.path}</code>
                  </span>
                ))
              : 'No brand serves articles on this branch (no page with the article template).'}
          </small>
        )
      },
    },
    {
      pointer: '/author',
      widget: 'reference',
      ref: 'authors',
      allowNone: false,
      className: 'fw-art-field fw-art-author',
    },
    { pointer: '/date', widget: 'date', className: 'fw-art-field fw-art-date' },
    {
      pointer: '/updated',
      widget: 'date',
      help: 'Optional; on or after the date.',
      className: 'fw-art-field fw-art-updated',
      check: (doc) =>
        str(doc.updated) && str(doc.date) && str(doc.updated) < str(doc.date)
          ? `Updated (${str(doc.updated)}) must not be before the date (${str(doc.date)}).`
          : null,
    },
    { pointer: '/carrier', className: 'fw-art-field fw-art-carrier' },
    { pointer: '/image', widget: 'image', label: 'Image (optional)' },
    {
      pointer: '/body',
      tab: 'body',
      widget: 'markdown',
      label: 'Body (Markdown)',
      help: 'Stored exactly as typed. Raw HTML shows as text on the page.',
    },
  ],
}
