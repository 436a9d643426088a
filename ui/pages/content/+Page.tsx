import { useResolution } from '../../shell/resolution-context'
import { HomeTemplate } from '../../templates/HomeTemplate'
import { LandingTemplate } from '../../templates/LandingTemplate'
import { LegalTemplate } from '../../templates/LegalTemplate'

/** Static content pages: one component per template. */
export default function Page() {
  const { page } = useResolution()
  switch (page?.template) {
    case 'home':
      return <HomeTemplate />
    case 'legal':
      return <LegalTemplate />
    default:
      return <LandingTemplate />
  }
}
