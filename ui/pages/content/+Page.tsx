import { LandingTemplate } from '../../templates/LandingTemplate'

/**
 * Landing pages, and any content template whose row in server/render/templates.ts names this page.
 * The smallest page: what a paid-traffic visitor lands on.
 */
export default function Page() {
  return <LandingTemplate />
}
