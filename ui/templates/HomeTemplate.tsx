import { useResolution } from '../shell/resolution-context'
import { ContentBody } from './ContentBody'
import { Hero } from './Hero'

/** A brand's home page: its promise, then the topics it covers. */
export function HomeTemplate() {
  const { page, brand, topics } = useResolution()
  if (!page || !brand) return null
  const ctaHref = page.cta?.href ?? page.destination
  return (
    <article className="template-home">
      <Hero page={page} ctaHref={ctaHref} />
      {brand.tagline && (
        <p className="container tagline" data-testid="tagline">
          {brand.tagline}
        </p>
      )}
      <ContentBody page={page} />
      {topics && topics.length > 0 && (
        <nav className="container topics" aria-labelledby="topics-heading">
          <h2 id="topics-heading">Explore topics</h2>
          <ul>
            {topics.map((t) => (
              <li key={t.href}>
                <a href={t.href}>
                  {t.product && <span className="eyebrow">{t.product}</span>}
                  <span className="topic-title">{t.title}</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </article>
  )
}
