import { useResolution } from '../shell/resolution-context'
import { ContentBody } from './ContentBody'
import { Hero } from './Hero'

/** A carrier review: the plan-feature comparison table, then the write-up and FAQ. */
export function ReviewTemplate() {
  const { page, relatedArticles } = useResolution()
  if (!page) return null
  const ctaHref = page.cta?.href ?? page.destination
  const rows = page.comparison ?? []
  return (
    <article className="template-review">
      <Hero page={page} ctaHref={ctaHref} />
      {rows.length > 0 && (
        <section className="container comparison" aria-labelledby="comparison-heading">
          <h2 id="comparison-heading">
            {page.carrier ? `${page.carrier} plan features at a glance` : 'Plan features at a glance'}
          </h2>
          <div className="table-scroll">
            <table className="comparison-table" data-testid="comparison">
              <thead>
                <tr>
                  <th scope="col">Feature</th>
                  <th scope="col">{page.carrier ?? 'What to expect'}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.feature}>
                    <th scope="row">{r.feature}</th>
                    <td>
                      {r.value}
                      {r.note && <span className="table-note">{r.note}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="muted small">
            Features vary by plan, county and year. Read the plan's Summary of Benefits and Evidence of
            Coverage before you enroll.
          </p>
        </section>
      )}
      <ContentBody page={page} />
      {relatedArticles && relatedArticles.length > 0 && (
        <section className="container related" aria-labelledby="related-heading">
          <h2 id="related-heading">Further reading</h2>
          <ul>
            {relatedArticles.map((a) => (
              <li key={a.slug}>
                <a href={`/reviews/${a.slug}`}>{a.title}</a>
                <span className="muted"> — {a.description}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
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
