import { useEffect, useState } from 'react'
import { branchApi, useApi } from '../api'
import type { ArticlePreviewData, ArticleServing } from '../api-types'
import { ARTICLE_PREVIEW_DEBOUNCE_MS } from '../cc-constants'
import { Loading } from '../States'
import { type ArticleDraft, slugOf, urlsOf } from './article-paths'

/**
 * The article as its published page renders it: the unsaved draft posted to the server, which runs
 * the article page's own loader, sanitiser and template (POST …/article-preview); refreshed shortly
 * after typing stops. Also links to the branch preview of the real page on each brand.
 */
export function ArticlePreview({
  branch,
  value,
  serving,
}: {
  branch: string
  value: ArticleDraft
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
