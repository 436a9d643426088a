import { useResolution } from '../shell/resolution-context'
import { ContentBody } from './ContentBody'
import { Hero } from './Hero'

/** A brand's home page: its promise, then the topics it covers. */
export function HomeTemplate() {
  const { page, brand } = useResolution()
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
    </article>
  )
}
