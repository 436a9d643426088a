import { useResolution } from '../shell/resolution-context'
import { ContentBody } from './ContentBody'
import { Hero } from './Hero'

/** A static landing page rendered from its definition. */
export function LandingTemplate() {
  const { page } = useResolution()
  if (!page) return null
  const ctaHref = page.cta?.href ?? page.destination
  return (
    <article className={`template-${page.template}`}>
      <Hero page={page} ctaHref={ctaHref} />
      <ContentBody page={page} />
      {page.cta && ctaHref && (
        <div className="container cta-band">
          <a className="button button-primary button-large" href={ctaHref}>
            {page.cta.label}
          </a>
        </div>
      )}
    </article>
  )
}
