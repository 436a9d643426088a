import { useEffect, useMemo } from 'react'
import type { Page } from '../../../schemas/generated/page'
import bundledSchema from '../../../schemas/page.schema.json'
import { PAGE_UI } from '../forms/kinds/page-ui'
import { domId } from '../forms/pointer'
import { SchemaForm } from '../forms/SchemaForm'
import type { JsonSchema } from '../forms/types'
import type { ImageRow } from '../images-api'
import type { JsonDraft } from '../use-json-draft'

/** The page-form sections, one per tab of the page editor. */
export type PageSection = 'content' | 'route' | 'seo'

/** The DOM id of a field's input, by JSON pointer: the preview's Select mode focuses it. */
export const fieldDomId = (pointer: string) => domId(PAGE_UI.idPrefix, pointer)

/** The text fields a click in the preview can land on, with their pointers and tabs. */
export function clickableFields(
  page: Partial<Page>,
): { pointer: string; text: string; section: PageSection }[] {
  const out: { pointer: string; text: string; section: PageSection }[] = []
  const add = (pointer: string, v: unknown, section: PageSection) => {
    if (typeof v === 'string' && v.trim()) out.push({ pointer, text: v.trim(), section })
  }
  add('/headline', page.headline, 'content')
  add('/subheadline', page.subheadline, 'content')
  add('/product', page.product, 'content')
  add('/cta/label', page.cta?.label, 'content')
  for (const [i, b] of (page.benefits ?? []).entries()) add(`/benefits/${i}`, b, 'content')
  page.faq?.forEach((f, i) => {
    add(`/faq/${i}/question`, f.question, 'content')
    add(`/faq/${i}/answer`, f.answer, 'content')
  })
  add('/title', page.title, 'seo')
  add('/description', page.description, 'seo')
  add('/image/alt', page.image?.alt, 'content')
  return out
}

/**
 * Which field a clicked element shows: the field whose text equals the element's text, else the
 * longest field text the element contains (a headline inside a heading with a badge).
 */
export function fieldForText(
  page: Partial<Page>,
  clicked: string,
): { pointer: string; section: PageSection } | null {
  const t = clicked.replace(/\s+/g, ' ').trim()
  if (!t) return null
  const fields = clickableFields(page)
  const exact = fields.find((f) => f.text.replace(/\s+/g, ' ') === t)
  if (exact) return exact
  const inside = fields
    .filter((f) => f.text.length >= 3 && t.includes(f.text.replace(/\s+/g, ' ')))
    .sort((a, b) => b.text.length - a.text.length)[0]
  return inside ?? null
}

/**
 * The page's fields for one tab, built by the form registry from page.schema.json (or the schema
 * passed in) and the page's UI description (forms/kinds/page-ui.tsx): labels, enums, lengths and help
 * come from the schema; which fields show depends on the template. Every change goes to the shared
 * draft, so the Content, Route and SEO tabs edit one document; the server's errors show at their field.
 */
export function PageForm({
  draft,
  section,
  brands,
  funnels,
  images,
  fileKey,
  onSource,
  focus,
  schema = bundledSchema as JsonSchema,
}: {
  draft: JsonDraft<Page>
  /** The page's file name: its key when the document names none. */
  fileKey: string
  section: PageSection
  brands: { id: string; name: string }[]
  funnels: string[]
  /** Uploaded images of the branch, for the image picker (null while loading). */
  images: ImageRow[] | null
  onSource: () => void
  /** A pointer to focus once the form shows (Select mode in the preview). */
  focus?: { pointer: string; n: number } | null
  /** The page kind's JSON Schema (the bundled page.schema.json unless a test passes a copy). */
  schema?: JsonSchema
}) {
  const page = draft.value
  useEffect(() => {
    if (!focus) return
    const el = document.getElementById(fieldDomId(focus.pointer))
    el?.scrollIntoView({ block: 'center' })
    el?.focus()
  }, [focus])
  const key = (typeof page?.key === 'string' && page.key) || fileKey
  const ui = useMemo(
    () => ({
      ...PAGE_UI,
      fields: PAGE_UI.fields.map((f) =>
        f.pointer === '/key'
          ? { ...f, fallback: fileKey }
          : f.pointer === '/path'
            ? { ...f, placeholder: `/${key}` }
            : f,
      ),
    }),
    [fileKey, key],
  )
  const ctx = useMemo(
    () => ({
      fileKey,
      images,
      refs: {
        funnels: funnels.map((f) => ({ value: f, label: f })),
        brands: brands.map((b) => ({ value: b.id, label: b.name })),
      },
    }),
    [fileKey, images, funnels, brands],
  )
  if (!page) return null
  const template = page.template ?? 'landing'
  return (
    <SchemaForm
      schema={schema}
      ui={ui}
      tab={section}
      value={page as unknown as Record<string, unknown>}
      onChange={(next) => draft.update(next as unknown as Page)}
      errors={draft.errors}
      readOnly={draft.readOnly}
      ctx={ctx}
      label={`Page ${section}`}
      testId={`page-form-${section}`}
      className="pf-form"
      onSource={onSource}
      footer={section === 'seo' ? <SearchSnippet page={page} fileKey={fileKey} /> : null}
    >
      <div className="pf-template muted">
        Template <strong>{template}</strong>: this tab shows the fields it uses.
      </div>
    </SchemaForm>
  )
}

/** How a search result would show the page. */
function SearchSnippet({ page, fileKey }: { page: Page; fileKey: string }) {
  const title = page.title || page.headline
  return (
    <section className="pf-snippet cc-card" aria-label="Search result preview">
      <p className="pf-snippet-title">{title || '(no title)'}</p>
      <p className="pf-snippet-url">{page.path || `/${page.key || fileKey}`}</p>
      <p className="pf-snippet-text">{page.description || '(no description)'}</p>
    </section>
  )
}
