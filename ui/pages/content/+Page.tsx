import { LandingTemplate } from '../../templates/LandingTemplate'

/**
 * Landing pages, and any content template without a page folder of its own (content-routes.ts).
 * The smallest page: what a paid-traffic visitor lands on.
 */
export default function Page() {
  return <LandingTemplate />
}
