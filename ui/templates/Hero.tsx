import type { ReactNode } from 'react'
import type { PageEntry } from '../../engine/snapshot/types'
import { PhoneCta } from '../phone'
import './templates.css'

/**
 * The top of a page: eyebrow (product), headline, subheadline, call to action and hero image.
 * With `aside` (a funnel page's form), that takes the image's place and the hero is compact, so the
 * first question is on the first screen of a phone and of a laptop.
 */
export function Hero({ page, ctaHref, aside }: { page: PageEntry; ctaHref?: string; aside?: ReactNode }) {
  return (
    <section className={aside ? 'hero hero-with-aside' : 'hero'}>
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
        {aside && (
          <div className="hero-aside" data-island="form">
            {aside}
          </div>
        )}
        {!aside && page.image && (
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
