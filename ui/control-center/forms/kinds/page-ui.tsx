/** The page editor's UI description: which tab each property of page.schema.json shows in, and how. */
import pageSchema from '../../../../schemas/page.schema.json'
import { topKey } from '../pointer'
import type { UiDescription } from '../types'

const str = (v: unknown) => (typeof v === 'string' ? v : '')
/** Shows for these templates (a field holding a value always shows). */
const forTemplates =
  (...templates: string[]) =>
  (doc: Record<string, unknown>) =>
    templates.includes(str(doc.template) || 'landing')

export const PAGE_UI: UiDescription = {
  idPrefix: 'pf',
  defaultTab: 'content',
  omit: ['$schema'],
  sourceOnly: {
    sections: 'content',
    comparison: 'content',
    onEnter: 'content',
    validate: 'route',
    smid: 'route',
    xsmid: 'route',
  },
  fields: [
    {
      pointer: '/headline',
      when: forTemplates('home', 'landing', 'funnel', 'review', 'thank-you', 'article-index'),
    },
    {
      pointer: '/subheadline',
      widget: 'longText',
      when: forTemplates('home', 'landing', 'funnel', 'review', 'thank-you'),
    },
    { pointer: '/product' },
    { pointer: '/form', label: 'Funnel', widget: 'reference', ref: 'funnels', when: forTemplates('funnel') },
    { pointer: '/destination', placeholder: '/thank-you', when: forTemplates('funnel', 'landing') },
    {
      pointer: '/allowExternalDestination',
      label: 'The destination may be an https URL on another site',
      when: forTemplates('funnel', 'landing'),
    },
    { pointer: '/image', widget: 'image', when: forTemplates('home', 'landing', 'funnel', 'review') },
    { pointer: '/benefits', help: 'One per line.', when: forTemplates('landing', 'funnel', 'home') },
    {
      pointer: '/cta',
      label: 'Call to action',
      widget: 'cta',
      when: forTemplates('landing', 'home', 'review'),
    },
    {
      pointer: '/faq',
      label: 'Questions and answers',
      widget: 'faq',
      when: forTemplates('landing', 'home', 'review'),
    },
    { pointer: '/legal', label: 'Legal text', when: forTemplates('legal') },
    { pointer: '/carrier', when: forTemplates('review') },
    {
      pointer: '/relatedArticles',
      label: 'Related articles (ids)',
      widget: 'lines',
      help: 'One per line.',
      when: forTemplates('review'),
    },
    {
      pointer: '/key',
      tab: 'route',
      label: 'Page key',
      readOnly: true,
      help: "The file name; the page's name in events and here.",
    },
    { pointer: '/template', tab: 'route', allowNone: false, exclude: ['control-center'] },
    {
      pointer: '/path',
      tab: 'route',
      after: (doc, ctx) => {
        const brands = Array.isArray(doc.brands) ? (doc.brands as string[]) : []
        const path = str(doc.path) || `/${str(doc.key) || str(ctx.fileKey) || 'page'}`
        return (
          <p className="pf-urls muted" data-testid="page-urls">
            Served at{' '}
            {brands.length === 0
              ? 'no brand yet'
              : brands.map((b, i) => (
                  <span key={b}>
                    {i > 0 && ', '}
                    <code>
                      {b}: {path}
                    </code>
                  </span>
                ))}
            .
          </p>
        )
      },
    },
    { pointer: '/aliases', tab: 'route', widget: 'lines', help: 'One per line.' },
    { pointer: '/brands', tab: 'route', widget: 'referenceSet', ref: 'brands' },
    { pointer: '/language', tab: 'route' },
    { pointer: '/colorMode', tab: 'route', label: 'Colour mode' },
    { pointer: '/title', tab: 'seo' },
    { pointer: '/description', tab: 'seo', label: 'Meta description', widget: 'longText' },
    { pointer: '/indexable', tab: 'seo', label: 'Search engines may index this page' },
  ],
}

/** The page editor tab whose form shows the field at `pointer`; `source` for what only the Source tab edits. */
export function pageTabOf(pointer: string): string {
  const key = topKey(pointer)
  const described = PAGE_UI.fields.find((f) => topKey(f.pointer) === key)
  if (described) return described.tab ?? PAGE_UI.defaultTab
  if (!key || key in (PAGE_UI.sourceOnly ?? {}) || !(key in pageSchema.properties)) return 'source'
  return PAGE_UI.defaultTab
}
