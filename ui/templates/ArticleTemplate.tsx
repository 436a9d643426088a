import { useResolution } from '../shell/resolution-context'
import './templates.css'

function formatDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  })
}

/** A review article from the reviews catch-all: byline, Markdown body (rendered on the server), author box. */
export function ArticleTemplate() {
  const { article, page } = useResolution()
  if (!article || !page) return null
  return (
    <article className="container narrow article" data-testid="article">
      <p className="eyebrow">
        <a href="/reviews">Reviews</a> · {article.carrier}
      </p>
      <h1 data-testid="headline">{article.title}</h1>
      <p className="lead">{article.description}</p>
      <p className="byline">
        By <strong>{article.author.name}</strong> ·{' '}
        <time dateTime={article.date}>{formatDate(article.date)}</time>
        {article.updated && (
          <>
            {' '}
            · Updated <time dateTime={article.updated}>{formatDate(article.updated)}</time>
          </>
        )}
      </p>
      {article.image && (
        <img
          className="article-image"
          src={article.image.src}
          alt={article.image.alt}
          width={article.image.width}
          height={article.image.height}
        />
      )}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: rendered from Markdown on the server with raw HTML escaped and unsafe links dropped */}
      <div className="article-body" dangerouslySetInnerHTML={{ __html: article.html }} />
      <aside className="author-box" aria-label="About the author">
        <p className="author-name">{article.author.name}</p>
        <p>{article.author.bio}</p>
        {article.author.credentials.length > 0 && (
          <ul>
            {article.author.credentials.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        )}
      </aside>
    </article>
  )
}

export { formatDate }
