import type { ArticlePreviewData, ArticleServing } from '../../../schemas/generated/cc-answers/articles'
import { branchApi, useApi } from '../api'
import { ARTICLE_PREVIEW_DEBOUNCE_MS } from '../cc-constants'
import { Loading } from '../States'
import { useDebouncedRead } from '../use-poll'
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
  const slug = slugOf({
    id: String(value.id ?? ''),
    slug: typeof value.slug === 'string' ? value.slug : undefined,
  })
  const rendered = useDebouncedRead(
    (article: ArticleDraft) =>
      api<ArticlePreviewData>('POST', branchApi(branch, '/article-preview'), { article }),
    value,
    `${branch}\0${JSON.stringify(value)}`,
    ARTICLE_PREVIEW_DEBOUNCE_MS,
  )
  const linked = useDebouncedRead(
    (at: { slug: string; serving: ArticleServing[] }) =>
      Promise.all(
        urlsOf(at.serving, at.slug).map(async (u) => {
          const r = await api<{ urls: Record<string, string> }>('POST', '/api/cc/previews', {
            branch,
            drafts: true,
            brand: u.brand,
            path: u.path,
          })
          return { ...u, url: r.urls[u.brand] ?? Object.values(r.urls)[0] }
        }),
      ),
    { slug, serving },
    `${branch}\0${slug}\0${JSON.stringify(serving)}`,
    ARTICLE_PREVIEW_DEBOUNCE_MS,
  )
  const preview = rendered.data ?? null
  const error = rendered.error
  // A failed read of the links shows none.
  const links = linked.error ? [] : (linked.data ?? null)

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
