import { useResolution } from '../shell/resolution-context'
import { ContentBody } from './ContentBody'
import './templates.css'

/** Where a finished funnel lands: confirmation, what happens next. */
export function ThankYouTemplate() {
  const { page, visitorPhone } = useResolution()
  if (!page) return null
  return (
    <article className="template-thank-you">
      <section className="hero thank-you-hero">
        <div className="container narrow thank-you-card">
          {page.image && (
            <img
              className="thank-you-image"
              src={page.image.src}
              alt={page.image.alt}
              width={page.image.width}
              height={page.image.height}
            />
          )}
          {page.headline && <h1 data-testid="headline">{page.headline}</h1>}
          {page.subheadline && <p className="lead">{page.subheadline}</p>}
          {/* The number the lead record says this visitor was shown (docs/decisions/0231), without JavaScript too. */}
          {visitorPhone?.shown && (
            <p
              className="thank-you-phone"
              data-testid="thank-you-phone"
              data-phone-source={visitorPhone.source}
            >
              <a href={visitorPhone.shown.href}>{visitorPhone.shown.dashed}</a>
            </p>
          )}
        </div>
      </section>
      <ContentBody page={page} />
    </article>
  )
}
