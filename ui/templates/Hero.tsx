import type { PageEntry } from '../../engine/snapshot/types'

export function Hero({ page, ctaHref }: { page: PageEntry; ctaHref?: string }) {
  return (
    <section className="hero">
      <div className="container hero-grid">
        <div className="hero-copy">
          {page.headline && <h1 data-testid="headline">{page.headline}</h1>}
          {page.subheadline && <p className="lead">{page.subheadline}</p>}
          {page.cta && ctaHref && (
            <p>
              <a className="button button-primary" href={ctaHref}>
                {page.cta.label}
              </a>
            </p>
          )}
        </div>
        {page.image && (
          <img
            className="hero-image"
            src={page.image.src}
            alt={page.image.alt}
            width={page.image.width}
            height={page.image.height}
            fetchPriority="high"
          />
        )}
      </div>
    </section>
  )
}
