import { useResolution } from '../shell/resolution-context'
import { formatDate } from './ArticleTemplate'
import { Hero } from './Hero'

/** /reviews: the carrier review pages' articles, newest first. */
export function ArticleIndexTemplate() {
  const { page, articles, carrierReviews } = useResolution()
  if (!page) return null
  return (
    <article className="template-article-index">
      <Hero page={page} />
      {(carrierReviews ?? []).length > 0 && (
        <nav className="container carrier-links" aria-label="Carrier reviews">
          <h2>Carrier reviews</h2>
          <ul>
            {(carrierReviews ?? []).map((r) => (
              <li key={r.href}>
                <a className="button" href={r.href}>
                  {r.carrier}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <h2 className="container articles-heading">Articles</h2>
      <div className="container article-list">
        {(articles ?? []).map((a) => (
          <a className="article-card" href={`/reviews/${a.slug}`} key={a.slug}>
            <span className="eyebrow">{a.carrier}</span>
            <span className="article-card-title">{a.title}</span>
            <span className="muted">{a.description}</span>
            <span className="small muted">
              {a.authorName} · <time dateTime={a.date}>{formatDate(a.date)}</time>
            </span>
          </a>
        ))}
      </div>
    </article>
  )
}
