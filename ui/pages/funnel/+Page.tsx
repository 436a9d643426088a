import { FunnelForm } from '../../funnel/FunnelForm'
import { useResolution } from '../../shell/resolution-context'
import { ContentBody } from '../../templates/ContentBody'
import { Hero } from '../../templates/Hero'

/** Funnel pages: the hero with the multi-step form beside (or under) the headline, then the page's content. */
export default function Page() {
  const resolution = useResolution()
  const { page, funnel } = resolution
  if (!page) return null
  return (
    <article className="template-funnel">
      <Hero page={page} aside={funnel && <FunnelForm resolution={resolution} funnel={funnel} />} />
      <ContentBody page={page} />
    </article>
  )
}
