import { lazy, type ReactElement, Suspense, useEffect, useId, useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import schema from '../../../schemas/article.schema.json'
import common from '../../../schemas/common.schema.json'
import type { Article } from '../../../schemas/generated/article'
import type {
  ArticleListData,
  ArticlePreviewData,
  ArticleServing,
} from '../../../schemas/generated/cc-answers/articles'
import type { DefinitionError } from '../../../schemas/generated/cc-answers/common'
import { branchApi, useApi } from '../api'
import { ARTICLE_PREVIEW_DEBOUNCE_MS } from '../cc-constants'
import { useCc } from '../cc-context'
import { SourceEditor } from '../SourceEditor'
import { Empty, ErrorState, FormError, Loading, ScrollRegion, WithResource } from '../States'
import { Tabs } from '../Tabs'
import { jsonText, useJsonDraft } from '../use-json-draft'
import { useResource } from '../use-resource'
import '../articles.css'

const MarkdownEditor = lazy(() => import('../MarkdownEditor'))

const FOLDER = 'definitions/articles/'
const PROPS = schema.properties
const TITLE_MAX = PROPS.title.maxLength
const DESCRIPTION_MAX = PROPS.description.maxLength
const ID_PATTERN = new RegExp(common.$defs.Slug.pattern)
const SLUG_PATTERN = new RegExp(PROPS.slug.pattern)
/** A page path's catch-all parameter (`/reviews/{slug...}`): where an article's slug goes. */
const CATCH_ALL = /\{\w+\.\.\.\}/

/** A file's state against live, in the list's words. */
const STATE_WORDS = { unchanged: 'as live', added: 'new', modified: 'changed', deleted: 'deleted' } as const

/** Fields removed from the file when emptied; a required one keeps its key (and shows its error). */
const OPTIONAL = new Set(['slug', 'updated', 'image'])

const articleOf = (path: string) => path.slice(FOLDER.length).replace(/\.json$/, '')
const pathOf = (id: string) => `${FOLDER}${id}.json`
const slugOf = (a: Pick<Article, 'id' | 'slug'>) => a.slug || a.id
const urlsOf = (serving: ArticleServing[], slug: string) =>
  serving.map((s) => ({ brand: s.brand, path: s.pattern.replace(CATCH_ALL, slug) }))
const bodyText = (body: unknown) =>
  Array.isArray(body) ? body.join('\n') : typeof body === 'string' ? body : ''

/**
 * `/articles?branch=B`: the branch's articles (title, slug, author, dates, carrier, state, problems),
 * New article, and the editor of the one `&article=<id>` names (or `&file=<path>`, from the Problems
 * panel): the metadata form, the Markdown body in CodeMirror, and a preview rendered by the server's
 * own article page; the Source tab beside it.
 */
export default function ArticlesScreen() {
  const { branch: b, revision } = useCc()
  const branch = b as string
  const q = new URLSearchParams(location.search)
  const file = q.get('file')
  const id = q.get('article') ?? (file?.startsWith(FOLDER) ? articleOf(file) : null)
  const list = useResource<ArticleListData>(branchApi(branch, '/articles'), revision)
  return (
    <div className="cc-page fw-articles">
      <h1>Articles</h1>
      <div className="cc-actions cc-row">
        <NewArticle branch={branch} data={list.data} />
        <a className="button" href={ccPath('content-factory', {}, branch)}>
          Generate with content factory
        </a>
      </div>
      {id && (
        <ArticleDetail
          key={`${branch}:${id}`}
          branch={branch}
          id={id}
          data={list.data}
          pointer={q.get('pointer')}
        />
      )}
      <WithResource resource={list} what="articles">
        {(d) =>
          d.articles.length === 0 ? (
            <Empty>This branch has no articles yet. Start one with New article.</Empty>
          ) : (
            <ArticleTable data={d} branch={branch} selected={id} />
          )
        }
      </WithResource>
    </div>
  )
}

function ArticleTable({
  data,
  branch,
  selected,
}: {
  data: ArticleListData
  branch: string
  selected: string | null
}) {
  const authorName = (id: string) => data.authors.find((a) => a.id === id)?.name ?? id
  return (
    <ScrollRegion label="Articles">
      <table className="cc-table fw-articles-table" data-testid="article-table">
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">URL</th>
            <th scope="col">Author</th>
            <th scope="col">Date</th>
            <th scope="col">Carrier</th>
            <th scope="col">State</th>
            <th scope="col">Problems</th>
          </tr>
        </thead>
        <tbody>
          {data.articles.map((row) => {
            const a = row.article
            const id = articleOf(row.path)
            const slug = a ? slugOf({ id: a.id ?? id, slug: a.slug }) : id
            const urls = urlsOf(data.serving, slug)
            return (
              <tr key={row.path} aria-current={id === selected ? 'true' : undefined}>
                <td>
                  <a href={ccPath('articles', {}, branch, { article: id })}>{a?.title || id}</a>
                </td>
                <td>
                  {urls.length ? (
                    urls.map((u) => (
                      <code key={u.brand} className="fw-art-url">
                        {u.path}
                      </code>
                    ))
                  ) : (
                    <code>{slug}</code>
                  )}
                </td>
                <td>{a ? authorName(a.author) : ''}</td>
                <td>
                  {a?.date}
                  {a?.updated && <small className="muted fw-art-updated-on">updated {a.updated}</small>}
                </td>
                <td>{a?.carrier}</td>
                <td>
                  {STATE_WORDS[row.state]}
                  {row.draft && <span className="cc-chip cc-chip-draft">my draft</span>}
                </td>
                <td>
                  {row.problems ? (
                    <span className="cc-chip cc-chip-error">
                      {row.problems} problem{row.problems === 1 ? '' : 's'}
                    </span>
                  ) : (
                    '0'
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </ScrollRegion>
  )
}

/** The minimal valid article a new file starts from: a draft, body as lines (docs/decisions/0101). */
function newArticle(id: string, author: string): Article {
  return {
    $schema: '../../schemas/article.schema.json',
    id,
    title: 'New article',
    description: 'A short summary of the article, shown in lists and search results.',
    author,
    date: new Date().toISOString().slice(0, 10),
    carrier: 'Carrier',
    body: ['## Heading', '', 'Write the article here.', ''],
  }
}

/** New article: an id checked as typed, then `definitions/articles/<id>.json` as my draft. */
function NewArticle({ branch, data }: { branch: string; data: ArticleListData | null }) {
  const api = useApi()
  const { may } = useCc()
  const base = useId()
  const [open, setOpen] = useState(false)
  const [id, setId] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  if (branch === LIVE_BRANCH_NAME || !may('branch.edit')) return null
  const taken = data?.articles.some((r) => articleOf(r.path) === id || r.article?.slug === id)
  const problem = !id
    ? 'Type an id: lowercase letters, digits and hyphens.'
    : !ID_PATTERN.test(id)
      ? `"${id}" is not an id: use lowercase letters, digits and single hyphens (e.g. aetna-dental-extras).`
      : taken
        ? `"${id}" is already used by an article on this branch.`
        : null
  if (!open)
    return (
      <button type="button" className="button button-primary" onClick={() => setOpen(true)}>
        New article
      </button>
    )
  const create = async () => {
    if (problem || !data) return
    setBusy(true)
    setError(null)
    try {
      const text = jsonText(newArticle(id, data.authors[0]?.id ?? 'author'))
      await api('PUT', branchApi(branch, `/drafts?path=${encodeURIComponent(pathOf(id))}`), { text })
      location.assign(ccPath('articles', {}, branch, { article: id }))
    } catch (e) {
      setError((e as Error).message)
      setBusy(false)
    }
  }
  return (
    <form
      className="cc-card fw-art-new"
      aria-label="New article"
      onSubmit={(e) => {
        e.preventDefault()
        void create()
      }}
    >
      <div className="cc-field">
        <label htmlFor={`${base}-id`}>Id of the new article</label>
        <input
          id={`${base}-id`}
          value={id}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={!!id && !!problem}
          aria-describedby={`${base}-help`}
          onChange={(e) => setId(e.target.value)}
        />
        <small id={`${base}-help`} className={id && problem ? 'cc-form-error' : 'muted'}>
          {problem ?? `Creates ${pathOf(id)} as your draft on this branch; the URL slug defaults to the id.`}
        </small>
      </div>
      <FormError message={error} />
      <div className="cc-row">
        <button type="submit" className="button button-primary" disabled={!!problem || busy || !data}>
          {busy ? 'Creating…' : 'Create draft'}
        </button>
        <button type="button" className="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  )
}

function ArticleDetail({
  branch,
  id,
  data,
  pointer,
}: {
  branch: string
  id: string
  data: ArticleListData | null
  pointer: string | null
}) {
  const [tab, setTab] = useState(pointer ? 'source' : 'form')
  const path = pathOf(id)
  return (
    <section className="cc-card cc-detail fw-art-detail" aria-label={`Article ${id}`}>
      <div className="cc-row cc-row-between">
        <h2 className="cc-h3">
          <code>{path}</code>
        </h2>
        <a className="button cc-small" href={ccPath('articles', {}, branch)}>
          Close
        </a>
      </div>
      <Tabs
        label="Edit the article"
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: 'form', label: 'Article' },
          { id: 'source', label: 'Source' },
        ]}
      >
        {tab === 'form' ? (
          <ArticleEditor branch={branch} path={path} data={data} />
        ) : (
          <SourceEditor branch={branch} path={path} pointer={pointer} />
        )}
      </Tabs>
    </section>
  )
}

type Draft = Partial<Article> & Record<string, unknown>

/**
 * The article's metadata and Markdown body, on the shared draft/autosave/commit hook. The body keeps
 * the form the file uses (a string, or a list of lines) and is stored exactly as typed.
 */
function ArticleEditor({
  branch,
  path,
  data,
}: {
  branch: string
  path: string
  data: ArticleListData | null
}) {
  const draft = useJsonDraft<Draft>(branch, path)
  const base = useId()
  if (draft.loading) return <Loading what="the article" />
  if (draft.loadError) return <ErrorState message={draft.loadError} retry={draft.reload} />
  if (draft.unreadable)
    return <ErrorState message="This file is not a JSON object: fix it in the Source tab." />
  const value = draft.value
  if (!value) return <Loading what="the article" />

  const errorsAt = (pointer: string) =>
    draft.errors.filter((e) => e.pointer === pointer || e.pointer.startsWith(`${pointer}/`))
  /** Sets a field in place (the file's key order stays); an emptied optional field is removed. */
  const set = (key: string, v: unknown) => {
    const next: Draft = { ...value }
    if (v === undefined || (v === '' && OPTIONAL.has(key))) delete next[key]
    else next[key] = v
    draft.update(next)
  }
  const str = (k: string) => (typeof value[k] === 'string' ? (value[k] as string) : '')
  const id = str('id') || articleOf(path)
  const slug = str('slug') || id
  const urls = urlsOf(data?.serving ?? [], slug)
  const date = str('date')
  const updated = str('updated')
  const dateRule =
    updated && date && updated < date ? `Updated (${updated}) must not be before the date (${date}).` : null
  const authors = data?.authors ?? []
  const author = str('author')
  const image = (value.image ?? null) as Partial<NonNullable<Article['image']>> | null
  const setImage = (k: string, v: unknown) => {
    const next: Record<string, unknown> = { ...(image ?? {}) }
    if (v === '' || v === undefined || (typeof v === 'number' && Number.isNaN(v))) delete next[k]
    else next[k] = v
    set('image', Object.keys(next).length ? next : undefined)
  }

  const field = (
    name: string,
    label: string,
    input: (p: { id: string; describedBy: string; invalid: boolean }) => ReactElement,
    help?: ReactElement | string | null,
    extraErrors: string[] = [],
  ) => {
    const fid = `${base}-${name.replace(/\//g, '-')}`
    const errs = errorsAt(`/${name}`)
    return (
      <div className={`cc-field fw-art-field fw-art-${name.replace(/\//g, '-')}`}>
        <label htmlFor={fid}>{label}</label>
        {input({
          id: fid,
          describedBy: `${fid}-help ${fid}-err`,
          invalid: errs.length + extraErrors.length > 0,
        })}
        <small id={`${fid}-help`} className="muted">
          {help}
        </small>
        <FieldErrors id={`${fid}-err`} errors={errs} extra={extraErrors} />
      </div>
    )
  }
  const text = (
    name: keyof Article & string,
    label: string,
    help?: ReactElement | string | null,
    max?: number,
  ) =>
    field(
      name,
      label,
      (p) => (
        <input
          id={p.id}
          value={str(name)}
          aria-describedby={p.describedBy}
          aria-invalid={p.invalid || (max !== undefined && str(name).length > max)}
          onChange={(e) => set(name, e.target.value)}
        />
      ),
      <>
        {max !== undefined && <Counter n={str(name).length} max={max} />} {help}
      </>,
    )

  const body = value.body
  const lines = Array.isArray(body)
  const bodyId = `${base}-body`
  const bodyErrors = errorsAt('/body')

  return (
    <div className="stack fw-art-editor">
      {draft.bar}
      <div className="fw-art-layout">
        <form className="fw-art-form" aria-label="Article fields" onSubmit={(e) => e.preventDefault()}>
          {text('title', 'Title', null, TITLE_MAX)}
          {field(
            'description',
            'Description',
            (p) => (
              <textarea
                id={p.id}
                rows={3}
                value={str('description')}
                aria-describedby={p.describedBy}
                aria-invalid={p.invalid || str('description').length > DESCRIPTION_MAX}
                onChange={(e) => set('description', e.target.value)}
              />
            ),
            <>
              <Counter n={str('description').length} max={DESCRIPTION_MAX} /> {PROPS.description.description}
            </>,
          )}
          {field(
            'slug',
            'Slug',
            (p) => (
              <input
                id={p.id}
                value={str('slug')}
                placeholder={id}
                spellCheck={false}
                aria-describedby={p.describedBy}
                aria-invalid={p.invalid || (!!str('slug') && !SLUG_PATTERN.test(str('slug')))}
                onChange={(e) => set('slug', e.target.value)}
              />
            ),
            <span data-testid="article-urls">
              {urls.length
                ? urls.map((u) => (
                    <span key={u.brand} className="fw-art-url-line">
                      On {u.brand}: <code>{u.path}</code>
                    </span>
                  ))
                : 'No brand serves articles on this branch (no page with the article template).'}{' '}
              {PROPS.slug.description}
            </span>,
            str('slug') && !SLUG_PATTERN.test(str('slug'))
              ? ['Use lowercase letters, digits and hyphens, with / between segments (e.g. aetna/dental).']
              : [],
          )}
          {field(
            'author',
            'Author',
            (p) => (
              <select
                id={p.id}
                value={author}
                aria-describedby={p.describedBy}
                aria-invalid={p.invalid}
                onChange={(e) => set('author', e.target.value)}
              >
                {!authors.some((a) => a.id === author) && (
                  <option value={author}>{author ? `${author} (unknown author)` : 'Choose an author'}</option>
                )}
                {authors.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name} ({a.id})
                  </option>
                ))}
              </select>
            ),
            'From definitions/authors/.',
          )}
          <div className="fw-art-dates">
            {field(
              'date',
              'Date',
              (p) => (
                <input
                  id={p.id}
                  type="date"
                  value={date}
                  aria-describedby={p.describedBy}
                  aria-invalid={p.invalid}
                  onChange={(e) => set('date', e.target.value)}
                />
              ),
              'Publication date.',
            )}
            {field(
              'updated',
              'Updated',
              (p) => (
                <input
                  id={p.id}
                  type="date"
                  value={updated}
                  min={date || undefined}
                  aria-describedby={p.describedBy}
                  aria-invalid={p.invalid}
                  onChange={(e) => set('updated', e.target.value)}
                />
              ),
              'Optional; on or after the date.',
              dateRule && !errorsAt('/updated').length ? [dateRule] : [],
            )}
          </div>
          {text('carrier', 'Carrier', 'Insurance carrier the article is about.')}
          <fieldset className="cc-fieldset fw-art-image">
            <legend>Image (optional)</legend>
            <div className="fw-art-image-fields">
              {field(
                'image/src',
                'Image src',
                (p) => (
                  <input
                    id={p.id}
                    value={image?.src ?? ''}
                    placeholder="/images/…"
                    aria-describedby={p.describedBy}
                    aria-invalid={p.invalid}
                    onChange={(e) => setImage('src', e.target.value)}
                  />
                ),
                'A path under ui/public (starting with /) or an https URL.',
              )}
              {field(
                'image/alt',
                'Image alt text',
                (p) => (
                  <input
                    id={p.id}
                    value={image?.alt ?? ''}
                    aria-describedby={p.describedBy}
                    aria-invalid={p.invalid}
                    onChange={(e) => setImage('alt', e.target.value)}
                  />
                ),
                'Read to screen readers.',
              )}
              {(['width', 'height'] as const).map((k) =>
                field(
                  `image/${k}`,
                  k === 'width' ? 'Width (px)' : 'Height (px)',
                  (p) => (
                    <input
                      id={p.id}
                      type="number"
                      min={1}
                      inputMode="numeric"
                      value={image?.[k] ?? ''}
                      aria-describedby={p.describedBy}
                      aria-invalid={p.invalid}
                      onChange={(e) => setImage(k, e.target.value === '' ? '' : Number(e.target.value))}
                    />
                  ),
                  null,
                ),
              )}
            </div>
            <FieldErrors
              id={`${base}-image-err`}
              errors={draft.errors.filter((e) => e.pointer === '/image')}
            />
          </fieldset>
        </form>
        <div className="fw-art-body">
          <p className="cc-field">
            <span id={`${bodyId}-label`}>Body (Markdown)</span>
          </p>
          <small id={`${bodyId}-help`} className="muted">
            Stored exactly as typed{lines ? ', one line per list entry in the file' : ''}. Raw HTML shows as
            text on the page.
          </small>
          <Suspense fallback={<Loading what="the Markdown editor" />}>
            <MarkdownEditor
              value={bodyText(body)}
              label="Body (Markdown)"
              describedBy={`${bodyId}-help ${bodyId}-err`}
              onChange={(t) => {
                const current = draft.value?.body
                set('body', typeof current === 'string' ? t : t.split('\n'))
              }}
            />
          </Suspense>
          <FieldErrors id={`${bodyId}-err`} errors={bodyErrors} />
        </div>
        <ArticlePreview branch={branch} value={value} serving={data?.serving ?? []} />
      </div>
    </div>
  )
}

function Counter({ n, max }: { n: number; max: number }) {
  return (
    <span className={n > max ? 'cc-form-error fw-art-count' : 'fw-art-count'} data-testid="counter">
      {n}/{max} characters{n > max ? `: ${n - max} too many` : ''}.
    </span>
  )
}

function FieldErrors({
  id,
  errors,
  extra = [],
}: {
  id: string
  errors: DefinitionError[]
  extra?: string[]
}) {
  return (
    <ul id={id} className="fw-art-field-errors" data-testid="field-errors">
      {extra.map((m) => (
        <li key={m} className="cc-form-error">
          {m}
        </li>
      ))}
      {errors.map((e) => (
        <li key={`${e.pointer}:${e.message}`} className="cc-form-error">
          {e.pointer.split('/').length > 2 && <code>{e.pointer}</code>} {e.message}
        </li>
      ))}
    </ul>
  )
}

/**
 * The article as its published page renders it: the unsaved draft posted to the server, which runs
 * the article page's own loader, sanitiser and template (POST …/article-preview); refreshed shortly
 * after typing stops. Also links to the branch preview of the real page on each brand.
 */
function ArticlePreview({
  branch,
  value,
  serving,
}: {
  branch: string
  value: Draft
  serving: ArticleServing[]
}) {
  const api = useApi()
  const [preview, setPreview] = useState<ArticlePreviewData | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [links, setLinks] = useState<{ brand: string; path: string; url: string }[] | null>(null)
  const text = JSON.stringify(value)
  const slug = slugOf({
    id: String(value.id ?? ''),
    slug: typeof value.slug === 'string' ? value.slug : undefined,
  })

  // biome-ignore lint/correctness/useExhaustiveDependencies: the text is the value's identity
  useEffect(() => {
    let live = true
    const t = setTimeout(() => {
      api<ArticlePreviewData>('POST', branchApi(branch, '/article-preview'), { article: value }).then(
        (r) => {
          if (!live) return
          setPreview(r)
          setError(null)
        },
        (e: Error) => live && setError(e.message),
      )
    }, ARTICLE_PREVIEW_DEBOUNCE_MS)
    return () => {
      live = false
      clearTimeout(t)
    }
  }, [api, branch, text])

  const servingKey = JSON.stringify(serving)
  // biome-ignore lint/correctness/useExhaustiveDependencies: serving is compared by its text
  useEffect(() => {
    let live = true
    const t = setTimeout(() => {
      Promise.all(
        urlsOf(serving, slug).map(async (u) => {
          const r = await api<{ urls: Record<string, string> }>('POST', '/api/cc/previews', {
            branch,
            drafts: true,
            brand: u.brand,
            path: u.path,
          })
          return { ...u, url: r.urls[u.brand] ?? Object.values(r.urls)[0] }
        }),
      ).then(
        (l) => live && setLinks(l),
        () => live && setLinks([]),
      )
    }, ARTICLE_PREVIEW_DEBOUNCE_MS)
    return () => {
      live = false
      clearTimeout(t)
    }
  }, [api, branch, slug, servingKey])

  return (
    <section className="fw-art-preview" aria-label="Preview">
      <div className="cc-row cc-row-between">
        <h3 className="cc-h3">Preview</h3>
        <p className="muted fw-art-preview-where" data-testid="article-preview-where">
          {preview?.path ? (
            <>
              As <code>{preview.path}</code> on {preview.brand}, with your unsaved changes
            </>
          ) : (
            'With your unsaved changes'
          )}
        </p>
      </div>
      {error && (
        <p className="cc-form-error" role="alert">
          Preview: {error}
        </p>
      )}
      {!preview && !error ? (
        <Loading what="the preview" />
      ) : preview?.page ? (
        <div className="cc-preview-frame fw-art-frame">
          <iframe
            title="Article page preview"
            sandbox=""
            srcDoc={preview.page}
            data-testid="article-preview-frame"
          />
        </div>
      ) : preview ? (
        <div
          className="fw-art-preview-body"
          data-testid="article-preview-body"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's article sanitiser made this HTML (raw HTML escaped, unsafe links dropped)
          dangerouslySetInnerHTML={{ __html: preview.html }}
        />
      ) : null}
      {links && links.length > 0 && (
        <p className="cc-row" data-testid="article-preview">
          {links.map((l) => (
            <a key={l.brand} className="button cc-small" href={l.url} target="_blank" rel="noopener">
              Preview on {l.brand} (the branch's page)
            </a>
          ))}
        </p>
      )}
    </section>
  )
}
