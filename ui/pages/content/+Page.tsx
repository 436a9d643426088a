import { useResolution } from '../../shell/resolution-context'
import { ArticleIndexTemplate } from '../../templates/ArticleIndexTemplate'
import { ArticleTemplate } from '../../templates/ArticleTemplate'
import { HomeTemplate } from '../../templates/HomeTemplate'
import { LandingTemplate } from '../../templates/LandingTemplate'
import { LegalTemplate } from '../../templates/LegalTemplate'
import { ReviewTemplate } from '../../templates/ReviewTemplate'
import { ThankYouTemplate } from '../../templates/ThankYouTemplate'

/** Static content pages: one component per template. */
export default function Page() {
  const { page } = useResolution()
  switch (page?.template) {
    case 'home':
      return <HomeTemplate />
    case 'legal':
      return <LegalTemplate />
    case 'review':
      return <ReviewTemplate />
    case 'article':
      return <ArticleTemplate />
    case 'article-index':
      return <ArticleIndexTemplate />
    case 'thank-you':
      return <ThankYouTemplate />
    default:
      return <LandingTemplate />
  }
}
