import { useId, useState } from 'react'
import { ccPath, LIVE_BRANCH_NAME } from '../../../engine/render/control-center-routes'
import common from '../../../schemas/common.schema.json'
import type { Article } from '../../../schemas/generated/article'
import type { ArticleListData } from '../../../schemas/generated/cc-answers/articles'
import { branchApi, useApi } from '../api'
import { useCc } from '../cc-context'
import { FormError } from '../States'
import { jsonText } from '../use-json-draft'
import { useMutation } from '../use-mutation'
import { articleOf, pathOf } from './article-paths'

const ID_PATTERN = new RegExp(common.$defs.Slug.pattern)

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
export function NewArticle({ branch, data }: { branch: string; data: ArticleListData | null }) {
  const api = useApi()
  const { may } = useCc()
  const base = useId()
  const [open, setOpen] = useState(false)
  const [id, setId] = useState('')
  const create = useMutation(
    ({ id, author }: { id: string; author: string }) =>
      api('PUT', branchApi(branch, `/drafts?path=${encodeURIComponent(pathOf(id))}`), {
        text: jsonText(newArticle(id, author)),
      }),
    { onDone: (_, { id }) => location.assign(ccPath('articles', {}, branch, { article: id })) },
  )
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
  // Busy from the request until the browser leaves for the new article.
  const busy = create.busy || create.succeeded
  return (
    <form
      className="cc-card fw-art-new"
      aria-label="New article"
      onSubmit={(e) => {
        e.preventDefault()
        if (!problem && data) create.run({ id, author: data.authors[0]?.id ?? 'author' })
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
      <FormError message={create.error} />
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
