import { useResolution } from '../shell/resolution-context'
import { ContentBody } from './ContentBody'
import './templates.css'

/** Where a finished funnel lands: confirmation, what happens next. */
export function ThankYouTemplate() {
  const { page } = useResolution()
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
        </div>
      </section>
      <ContentBody page={page} />
    </article>
  )
}
