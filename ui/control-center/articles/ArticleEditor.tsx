import { useMemo } from 'react'
import schema from '../../../schemas/article.schema.json'
import type { ArticleListData } from '../../../schemas/generated/cc-answers/articles'
import { ARTICLE_UI } from '../forms/kinds/article-ui'
import { SchemaForm } from '../forms/SchemaForm'
import type { JsonSchema } from '../forms/types'
import { type ImageList, imagesUrl } from '../images-api'
import { ErrorState, Loading } from '../States'
import { useJsonDraft } from '../use-json-draft'
import { useResource } from '../use-resource'
import { ArticlePreview } from './ArticlePreview'
import { type ArticleDraft, articleOf } from './article-paths'

/**
 * The article's metadata and Markdown body, built from article.schema.json by the form registry, on
 * the shared draft/autosave/commit hook. The body keeps the form the file uses (a string, or a list of
 * lines) and is stored exactly as typed; the preview is the real article page's render of the draft.
 */
export function ArticleEditor({
  branch,
  path,
  data,
}: {
  branch: string
  path: string
  data: ArticleListData | null
}) {
  const draft = useJsonDraft<ArticleDraft>(branch, path)
  const images = useResource<ImageList>(imagesUrl(branch))
  const value = draft.value
  const id = (typeof value?.id === 'string' && value.id) || articleOf(path)
  const ui = useMemo(
    () => ({
      ...ARTICLE_UI,
      fields: ARTICLE_UI.fields.map((f) => (f.pointer === '/slug' ? { ...f, placeholder: id } : f)),
    }),
    [id],
  )
  const ctx = useMemo(
    () => ({
      serving: data?.serving ?? [],
      images: images.data?.images ?? (images.error ? [] : null),
      refs: { authors: data?.authors.map((a) => ({ value: a.id, label: `${a.name} (${a.id})` })) },
    }),
    [data, images.data, images.error],
  )
  if (draft.loading) return <Loading what="the article" />
  if (draft.loadError) return <ErrorState message={draft.loadError} retry={draft.reload} />
  if (draft.unreadable)
    return <ErrorState message="This file is not a JSON object: fix it in the Source tab." />
  if (!value) return <Loading what="the article" />
  const form = (tab: 'meta' | 'body', label: string, className: string) => (
    <SchemaForm
      schema={schema as JsonSchema}
      ui={ui}
      tab={tab}
      value={value}
      onChange={draft.update}
      errors={draft.errors}
      readOnly={draft.readOnly}
      ctx={ctx}
      label={label}
      className={className}
    />
  )
  return (
    <div className="stack fw-art-editor">
      {draft.bar}
      <div className="fw-art-layout">
        {form('meta', 'Article fields', 'fw-art-form')}
        {form('body', 'Article body', 'fw-art-body')}
        <ArticlePreview branch={branch} value={value} serving={data?.serving ?? []} />
      </div>
    </div>
  )
}
