import { useResolution } from '../../shell/resolution-context'
import { ContentBody } from '../../templates/ContentBody'
import { Hero } from '../../templates/Hero'

/** Funnel pages: the hero and the multi-step form (the funnel renderer arrives with the funnel machine). */
export default function Page() {
  const { page, funnel } = useResolution()
  if (!page) return null
  return (
    <article className="template-funnel">
      <Hero page={page} />
      {funnel && <p className="container">{funnel.steps.length} steps</p>}
      <ContentBody page={page} />
    </article>
  )
}
