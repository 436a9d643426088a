import { type ReactNode, useEffect } from 'react'
import type { DefinitionError } from '../../../schemas/generated/cc-answers/common'
import type { Page } from '../../../schemas/generated/page'
import schema from '../../../schemas/page.schema.json'
import { FieldInput } from '../FieldInput'
import { type ImageRow, toImageField } from '../images-api'
import type { JsonDraft } from '../use-json-draft'

/** The page-form sections, one per tab of the page editor. */
export type PageSection = 'content' | 'route' | 'seo'

interface Prop {
  description?: string
  enum?: string[]
  maxLength?: number
}
const PROPS = schema.properties as Record<string, Prop>
const TEMPLATES = PROPS.template.enum as string[]

/** Where a field shows: its tab, and the templates that read it (a field with a value always shows). */
const PLACES: Record<string, { section: PageSection; templates?: string[] }> = {
  headline: {
    section: 'content',
    templates: ['home', 'landing', 'funnel', 'review', 'thank-you', 'article-index'],
  },
  subheadline: { section: 'content', templates: ['home', 'landing', 'funnel', 'review', 'thank-you'] },
  product: { section: 'content' },
  image: { section: 'content', templates: ['home', 'landing', 'funnel', 'review'] },
  benefits: { section: 'content', templates: ['landing', 'funnel', 'home'] },
  cta: { section: 'content', templates: ['landing', 'home', 'review'] },
  form: { section: 'content', templates: ['funnel'] },
  destination: { section: 'content', templates: ['funnel', 'landing'] },
  faq: { section: 'content', templates: ['landing', 'home', 'review'] },
  legal: { section: 'content', templates: ['legal'] },
  carrier: { section: 'content', templates: ['review'] },
  relatedArticles: { section: 'content', templates: ['review'] },
}

/** Fields whose shape the form does not edit: a count and a link to the Source tab. */
const SOURCE_ONLY: Record<string, PageSection> = {
  sections: 'content',
  comparison: 'content',
  onEnter: 'content',
  validate: 'route',
  smid: 'route',
  xsmid: 'route',
}

/** The DOM id of a field's input, by JSON pointer: the preview's Select mode focuses it. */
export const fieldDomId = (pointer: string) => `pf${pointer.replace(/[^a-zA-Z0-9]+/g, '-')}`

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
 * The page's fields for one tab, built from page.schema.json (labels, enums, lengths and help come
 * from the schema; which fields show depends on the template). Every change goes to the shared
 * draft, so the Content, Route and SEO tabs edit one document; errors show at their field.
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
}) {
  const page = draft.value
  useEffect(() => {
    if (!focus) return
    const el = document.getElementById(fieldDomId(focus.pointer))
    el?.scrollIntoView({ block: 'center' })
    el?.focus()
  }, [focus])
  if (!page) return null
  const template = page.template ?? 'landing'
  const set = (key: string, v: unknown) => {
    const next = { ...page } as Record<string, unknown>
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) delete next[key]
    else next[key] = v
    draft.update(next as unknown as Page)
  }
  const shows = (key: string) => {
    const p = PLACES[key]
    if (!p || p.section !== section) return false
    return (
      !p.templates ||
      p.templates.includes(template) ||
      (page as unknown as Record<string, unknown>)[key] !== undefined
    )
  }
  const errorsAt = (pointer: string) =>
    draft.errors.filter((e) => e.pointer === pointer || e.pointer.startsWith(`${pointer}/`))
  const shown = new Set<DefinitionError>()
  const field = (
    pointer: string,
    label: string,
    input: (p: { id: string; describedBy: string; invalid: boolean }) => ReactNode,
    help?: ReactNode,
  ) => {
    const id = fieldDomId(pointer)
    const errs = errorsAt(pointer)
    for (const e of errs) shown.add(e)
    return (
      <div className="cc-field pf-field" key={pointer}>
        <label htmlFor={id}>{label}</label>
        {input({ id, describedBy: `${id}-help ${id}-err`, invalid: errs.length > 0 })}
        <small id={`${id}-help`} className="muted">
          {help}
        </small>
        <ul id={`${id}-err`} className="fw-field-errors">
          {errs.map((e) => (
            <li key={`${e.pointer}${e.message}`} className="cc-form-error">
              {e.pointer !== pointer && <code>{e.pointer}</code>} {e.message}
            </li>
          ))}
        </ul>
      </div>
    )
  }
  const str = (v: unknown) => (typeof v === 'string' ? v : '')
  const text = (key: keyof Page, label: string, opts: { multiline?: boolean; placeholder?: string } = {}) => {
    const max = PROPS[key as string]?.maxLength
    const value = str(page[key])
    return field(
      `/${key}`,
      label,
      (p) =>
        opts.multiline ? (
          <textarea
            id={p.id}
            rows={3}
            value={value}
            placeholder={opts.placeholder}
            aria-describedby={p.describedBy}
            aria-invalid={p.invalid || undefined}
            readOnly={draft.readOnly}
            onChange={(e) => set(key, e.target.value)}
          />
        ) : (
          <FieldInput
            field={p}
            value={value}
            placeholder={opts.placeholder}
            readOnly={draft.readOnly}
            onChange={(e) => set(key, e.target.value)}
          />
        ),
      <>
        {PROPS[key as string]?.description}
        {max ? ` ${value.length} / ${max} characters.` : null}
      </>,
    )
  }
  const lines = (key: 'benefits' | 'aliases' | 'relatedArticles', label: string, help?: string) =>
    field(
      `/${key}`,
      label,
      (p) => (
        <textarea
          id={p.id}
          rows={Math.max(2, ((page[key] as string[] | undefined)?.length ?? 0) + 1)}
          value={((page[key] as string[] | undefined) ?? []).join('\n')}
          aria-describedby={p.describedBy}
          aria-invalid={p.invalid || undefined}
          readOnly={draft.readOnly}
          onChange={(e) =>
            set(
              key,
              e.target.value.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1),
            )
          }
        />
      ),
      <>One per line. {help ?? PROPS[key]?.description}</>,
    )
  const select = (key: keyof Page, label: string, options: string[], allowNone = true) =>
    field(
      `/${key}`,
      label,
      (p) => (
        <select
          id={p.id}
          value={str(page[key])}
          aria-describedby={p.describedBy}
          aria-invalid={p.invalid || undefined}
          disabled={draft.readOnly}
          onChange={(e) => set(key, e.target.value || undefined)}
        >
          {allowNone && <option value="">(not set)</option>}
          {!options.includes(str(page[key])) && str(page[key]) && <option>{str(page[key])}</option>}
          {options.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      ),
      PROPS[key as string]?.description,
    )
  const check = (key: keyof Page, label: string, defaultValue: boolean) =>
    field(
      `/${key}`,
      label,
      (p) => (
        <FieldInput
          field={p}
          type="checkbox"
          className="pf-check"
          checked={typeof page[key] === 'boolean' ? (page[key] as boolean) : defaultValue}
          disabled={draft.readOnly}
          onChange={(e) => set(key, e.target.checked === defaultValue ? undefined : e.target.checked)}
        />
      ),
      PROPS[key as string]?.description,
    )
  const sourceOnly = Object.entries(SOURCE_ONLY)
    .filter(([k, s]) => s === section && (page as unknown as Record<string, unknown>)[k] !== undefined)
    .map(([k]) => k)

  const body: ReactNode[] = []
  if (section === 'content') {
    if (shows('headline')) body.push(text('headline', 'Headline'))
    if (shows('subheadline')) body.push(text('subheadline', 'Subheadline', { multiline: true }))
    if (shows('product')) body.push(text('product', 'Product'))
    if (shows('form')) body.push(select('form', 'Funnel', funnels))
    if (shows('destination')) body.push(text('destination', 'Destination', { placeholder: '/thank-you' }))
    if (shows('image'))
      body.push(
        <ImageFields
          key="image"
          page={page}
          set={set}
          field={field}
          readOnly={draft.readOnly}
          images={images}
        />,
      )
    if (shows('benefits')) body.push(lines('benefits', 'Benefits'))
    if (shows('cta'))
      body.push(<CtaFields key="cta" page={page} set={set} field={field} readOnly={draft.readOnly} />)
    if (shows('faq'))
      body.push(<FaqFields key="faq" page={page} set={set} field={field} readOnly={draft.readOnly} />)
    if (shows('legal')) body.push(select('legal', 'Legal text', PROPS.legal.enum ?? []))
    if (shows('carrier')) body.push(text('carrier', 'Carrier'))
    if (shows('relatedArticles')) body.push(lines('relatedArticles', 'Related articles (ids)'))
  } else if (section === 'route') {
    body.push(
      field(
        '/key',
        'Page key',
        (p) => <input id={p.id} value={str(page.key) || fileKey} readOnly aria-describedby={p.describedBy} />,
        <>The file name; the page's name in events and here. {PROPS.key?.description}</>,
      ),
    )
    body.push(
      select(
        'template',
        'Template',
        TEMPLATES.filter((t) => t !== 'control-center'),
        false,
      ),
    )
    body.push(text('path', 'Path', { placeholder: `/${str(page.key) || fileKey || 'page'}` }))
    body.push(
      <p key="urls" className="pf-urls muted" data-testid="page-urls">
        Served at{' '}
        {(page.brands ?? []).length === 0
          ? 'no brand yet'
          : (page.brands ?? []).map((b, i) => (
              <span key={b}>
                {i > 0 && ', '}
                <code>
                  {b}: {str(page.path) || `/${str(page.key) || fileKey}`}
                </code>
              </span>
            ))}
        .
      </p>,
    )
    body.push(lines('aliases', 'Aliases'))
    body.push(
      field(
        '/brands',
        'Brands',
        (p) => (
          <fieldset id={p.id} className="pf-brands" aria-describedby={p.describedBy} tabIndex={-1}>
            <legend className="cc-visually-hidden">Brands</legend>
            {brands.map((b) => (
              <label key={b.id} className="cc-check">
                <input
                  type="checkbox"
                  disabled={draft.readOnly}
                  checked={(page.brands ?? []).includes(b.id)}
                  onChange={(e) => {
                    const now = page.brands ?? []
                    const next = e.target.checked ? [...now, b.id] : now.filter((x) => x !== b.id)
                    draft.update({ ...page, brands: next })
                  }}
                />
                {b.name} <span className="muted">({b.id})</span>
              </label>
            ))}
          </fieldset>
        ),
        PROPS.brands?.description,
      ),
    )
    body.push(select('language', 'Language', PROPS.language.enum ?? []))
    body.push(select('colorMode', 'Colour mode', PROPS.colorMode.enum ?? []))
  } else {
    body.push(text('title', 'Title'))
    body.push(text('description', 'Meta description', { multiline: true }))
    body.push(check('indexable', 'Search engines may index this page', true))
    const title = str(page.title) || str(page.headline)
    body.push(
      <section key="snippet" className="pf-snippet cc-card" aria-label="Search result preview">
        <p className="pf-snippet-title">{title || '(no title)'}</p>
        <p className="pf-snippet-url">{str(page.path) || `/${str(page.key) || fileKey}`}</p>
        <p className="pf-snippet-text">{str(page.description) || '(no description)'}</p>
      </section>,
    )
  }
  const rest = draft.errors.filter(
    (e) =>
      !shown.has(e) &&
      (section === 'route'
        ? /^\/(path|aliases|brands|template|language|colorMode|key|smid|xsmid|validate)/.test(e.pointer)
        : section === 'seo'
          ? /^\/(title|description|indexable)/.test(e.pointer)
          : !/^\/(path|aliases|brands|template|language|colorMode|key|smid|xsmid|validate|title|description|indexable)/.test(
              e.pointer,
            )),
  )
  return (
    <form
      className="stack pf-form"
      aria-label={`Page ${section}`}
      onSubmit={(e) => e.preventDefault()}
      data-testid={`page-form-${section}`}
    >
      <div className="pf-template muted">
        Template <strong>{template}</strong>: this tab shows the fields it uses.
      </div>
      {body}
      {sourceOnly.length > 0 && (
        <p className="muted">
          Also set on this page: {sourceOnly.join(', ')} —{' '}
          <button type="button" className="cc-link-button" onClick={onSource}>
            edit them in the Source tab
          </button>
          .
        </p>
      )}
      {rest.length > 0 && (
        <ul className="fw-field-errors" aria-label="Other errors in this tab">
          {rest.map((e) => (
            <li key={`${e.pointer}${e.message}`} className="cc-form-error">
              <code>{e.pointer || '/'}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
    </form>
  )
}

type FieldFn = (
  pointer: string,
  label: string,
  input: (p: { id: string; describedBy: string; invalid: boolean }) => ReactNode,
  help?: ReactNode,
) => ReactNode

function ImageFields({
  page,
  set,
  field,
  readOnly,
  images,
}: {
  page: Page
  set: (k: string, v: unknown) => void
  field: FieldFn
  readOnly: boolean
  images: ImageRow[] | null
}) {
  const img = page.image
  const update = (patch: Partial<NonNullable<Page['image']>>) => {
    const next = { src: '', alt: '', width: 1, height: 1, ...(img ?? {}), ...patch }
    set('image', next)
  }
  return (
    <fieldset className="pf-group">
      <legend>Image</legend>
      {img?.src && /^\/(images|uploads)\//.test(img.src) && (
        <img className="pf-thumb" src={img.src} alt="" width={img.width} height={img.height} />
      )}
      {!readOnly && (
        <div className="cc-field pf-field">
          <label htmlFor="pf-image-pick">Choose an uploaded image</label>
          <select
            id="pf-image-pick"
            value={images?.find((i) => i.src === img?.src)?.id ?? ''}
            disabled={!images}
            onChange={(e) => {
              const chosen = images?.find((i) => i.id === e.target.value)
              if (chosen) set('image', toImageField(chosen))
            }}
          >
            <option value="">
              {images ? (images.length ? 'Choose…' : 'No uploaded images on this branch') : 'Loading images…'}
            </option>
            {images?.map((i) => (
              <option key={i.id} value={i.id}>
                {i.id} — {i.decorative ? 'decorative' : i.alt || 'no alt text'} ({i.width}×{i.height})
              </option>
            ))}
          </select>
          <small className="muted">
            Fills the address, alt text, width and height; upload new images on the Images screen.
          </small>
        </div>
      )}
      {field(
        '/image/src',
        'Image address',
        (p) => (
          <FieldInput
            field={p}
            value={img?.src ?? ''}
            readOnly={readOnly}
            onChange={(e) => (e.target.value ? update({ src: e.target.value }) : set('image', undefined))}
          />
        ),
        'A path under the site (starting with /) or an https URL.',
      )}
      {field(
        '/image/alt',
        'Alt text',
        (p) => (
          <FieldInput
            field={p}
            value={img?.alt ?? ''}
            readOnly={readOnly || !img}
            onChange={(e) => update({ alt: e.target.value })}
          />
        ),
        'Read to screen readers; empty only for a decorative image.',
      )}
      <div className="pf-row">
        {field('/image/width', 'Width', (p) => (
          <FieldInput
            field={p}
            type="number"
            min={1}
            value={img?.width ?? ''}
            readOnly={readOnly || !img}
            onChange={(e) => update({ width: Number(e.target.value) || 1 })}
          />
        ))}
        {field('/image/height', 'Height', (p) => (
          <FieldInput
            field={p}
            type="number"
            min={1}
            value={img?.height ?? ''}
            readOnly={readOnly || !img}
            onChange={(e) => update({ height: Number(e.target.value) || 1 })}
          />
        ))}
      </div>
    </fieldset>
  )
}

function CtaFields({
  page,
  set,
  field,
  readOnly,
}: {
  page: Page
  set: (k: string, v: unknown) => void
  field: FieldFn
  readOnly: boolean
}) {
  const cta = page.cta
  const update = (patch: Partial<NonNullable<Page['cta']>>) => {
    const next = { label: '', ...(cta ?? {}), ...patch } as Record<string, unknown>
    for (const k of Object.keys(next)) if (next[k] === '' && k !== 'label') delete next[k]
    set('cta', next.label === '' && Object.keys(next).length === 1 ? undefined : next)
  }
  return (
    <fieldset className="pf-group">
      <legend>Call to action</legend>
      {field('/cta/label', 'Button label', (p) => (
        <FieldInput
          field={p}
          value={cta?.label ?? ''}
          readOnly={readOnly}
          onChange={(e) => update({ label: e.target.value })}
        />
      ))}
      {field(
        '/cta/href',
        'Goes to',
        (p) => (
          <FieldInput
            field={p}
            value={cta?.href ?? ''}
            placeholder="The page's destination"
            readOnly={readOnly}
            onChange={(e) => update({ href: e.target.value })}
          />
        ),
        'A relative path; empty: the page’s destination.',
      )}
      {field('/cta/phone', 'Also offer the phone number (in business hours)', (p) => (
        <FieldInput
          field={p}
          type="checkbox"
          className="pf-check"
          checked={cta?.phone === true}
          disabled={readOnly || !cta}
          onChange={(e) => update({ phone: e.target.checked || undefined })}
        />
      ))}
    </fieldset>
  )
}

function FaqFields({
  page,
  set,
  field,
  readOnly,
}: {
  page: Page
  set: (k: string, v: unknown) => void
  field: FieldFn
  readOnly: boolean
}) {
  const faq = page.faq ?? []
  const put = (i: number, patch: Partial<(typeof faq)[number]>) =>
    set(
      'faq',
      faq.map((f, j) => (j === i ? { ...f, ...patch } : f)),
    )
  return (
    <fieldset className="pf-group">
      <legend>Questions and answers</legend>
      {faq.length === 0 && <p className="muted">No questions yet.</p>}
      <ol className="pf-faq">
        {faq.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a question's place in the list is its identity
          <li key={i}>
            {field(`/faq/${i}/question`, `Question ${i + 1}`, (p) => (
              <FieldInput
                field={p}
                value={f.question}
                readOnly={readOnly}
                onChange={(e) => put(i, { question: e.target.value })}
              />
            ))}
            {field(`/faq/${i}/answer`, `Answer ${i + 1}`, (p) => (
              <textarea
                id={p.id}
                rows={2}
                value={f.answer}
                readOnly={readOnly}
                aria-describedby={p.describedBy}
                aria-invalid={p.invalid || undefined}
                onChange={(e) => put(i, { answer: e.target.value })}
              />
            ))}
            {!readOnly && (
              <button
                type="button"
                className="button cc-small"
                onClick={() =>
                  set(
                    'faq',
                    faq.filter((_, j) => j !== i),
                  )
                }
              >
                Remove question {i + 1}
              </button>
            )}
          </li>
        ))}
      </ol>
      {!readOnly && (
        <button
          type="button"
          className="button cc-small"
          onClick={() => set('faq', [...faq, { question: '', answer: '' }])}
        >
          Add a question
        </button>
      )}
    </fieldset>
  )
}
