import type { PageEntry } from '../../engine/snapshot/types'
import { PhoneCta } from '../phone'
import './templates.css'

/** The top of a page: eyebrow (product), headline, subheadline, call to action and hero image. */
export function Hero({ page, ctaHref }: { page: PageEntry; ctaHref?: string }) {
  return (
    <section className="hero">
      <div className="container hero-grid">
        <div className="hero-copy">
          {page.product && <p className="eyebrow">{page.product}</p>}
          {page.headline && <h1 data-testid="headline">{page.headline}</h1>}
          {page.subheadline && <p className="lead">{page.subheadline}</p>}
          {page.cta && ctaHref && (
            <p className="hero-cta">
              <a className="button button-primary button-large" href={ctaHref}>
                {page.cta.label}
                <span aria-hidden="true" className="button-arrow">
                  →
                </span>
              </a>
            </p>
          )}
          {page.cta?.phone && <PhoneCta />}
        </div>
        {page.image && (
          <div className="hero-media">
            <img
              className="hero-image"
              src={page.image.src}
              alt={page.image.alt}
              width={page.image.width}
              height={page.image.height}
              fetchPriority="high"
            />
          </div>
        )}
      </div>
    </section>
  )
}
