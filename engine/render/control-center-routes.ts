/**
 * The control center's routes (spec point 2, CONTROL-CENTER §1.1): exactly the paths the spec lists,
 * on the control-center brand only. Pure, so the server (routing, 401/302/404 decisions) and the
 * browser (links, the screen to load) read the same table (docs/decisions/0604).
 */

export const CONTROL_CENTER_SCREENS = [
  'branches',
  'branch',
  'articles',
  'content-factory',
  'content-factory-authors',
  'content-factory-runs',
  'content-factory-run',
  'experiments',
  'experiment',
  'funnel-dropoff',
  'images',
  'image',
  'pages',
  'page',
  'phone-rules',
  'leads',
] as const
export type ControlCenterScreen = (typeof CONTROL_CENTER_SCREENS)[number]

interface RouteRow {
  screen: ControlCenterScreen
  /** Path segments; `{name}` is a parameter (one segment). */
  pattern: string
  /** Screens under a branch read `?branch=` (missing → 302 to the last branch used, or live). */
  underBranch: boolean
}

const ROUTES: readonly RouteRow[] = [
  { screen: 'branches', pattern: '/branches', underBranch: false },
  { screen: 'branch', pattern: '/branches/{branch}', underBranch: false },
  { screen: 'articles', pattern: '/articles', underBranch: true },
  { screen: 'content-factory', pattern: '/content-factory', underBranch: true },
  { screen: 'content-factory-authors', pattern: '/content-factory/authors', underBranch: true },
  { screen: 'content-factory-runs', pattern: '/content-factory/runs', underBranch: true },
  { screen: 'content-factory-run', pattern: '/content-factory/runs/{run}', underBranch: true },
  { screen: 'experiments', pattern: '/experiments', underBranch: true },
  { screen: 'experiment', pattern: '/experiments/{experiment}', underBranch: true },
  // Drop-off reads live traffic, not a branch (issue 29, docs/decisions/0313).
  { screen: 'funnel-dropoff', pattern: '/funnels/{funnel}/dropoff', underBranch: false },
  { screen: 'images', pattern: '/images', underBranch: true },
  { screen: 'image', pattern: '/images/{image}', underBranch: true },
  { screen: 'pages', pattern: '/pages', underBranch: true },
  { screen: 'page', pattern: '/pages/{page}', underBranch: true },
  { screen: 'phone-rules', pattern: '/phone-rules', underBranch: true },
  // A person's data on request (issue 36, docs/decisions/0811): admins only, not content.
  { screen: 'leads', pattern: '/leads', underBranch: false },
]

/** The live (published) content's name wherever a branch is named. */
export const LIVE_BRANCH_NAME = 'live'
/** Staff branch names (the same rule as the server's git layer). */
export const CC_BRANCH_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/
/** Remembers the last branch a staff member used, for a branch screen opened without `?branch=`. */
export const CC_LAST_BRANCH_COOKIE = 'fw_cc_branch'

export interface ControlCenterMatch {
  screen: ControlCenterScreen
  params: Record<string, string>
  underBranch: boolean
}

/** Path → control-center screen, or null when the path is none of the spec's. */
export function matchControlCenterRoute(pathname: string): ControlCenterMatch | null {
  const parts = pathname.split('/').slice(1)
  for (const row of ROUTES) {
    const pattern = row.pattern.split('/').slice(1)
    if (pattern.length !== parts.length) continue
    const params: Record<string, string> = {}
    const ok = pattern.every((p, i) => {
      if (p.startsWith('{')) {
        if (!parts[i]) return false
        params[p.slice(1, -1)] = parts[i]
        return true
      }
      return p === parts[i]
    })
    if (ok) return { screen: row.screen, params, underBranch: row.underBranch }
  }
  return null
}

/** The URL of a screen: `ccPath('page', {page: 'grocery'}, 'spring-promo')` → `/pages/grocery?branch=spring-promo`. */
export function ccPath(
  screen: ControlCenterScreen,
  params: Record<string, string> = {},
  branch?: string,
  extra: Record<string, string> = {},
): string {
  const row = ROUTES.find((r) => r.screen === screen)!
  const path = row.pattern.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
  const q = new URLSearchParams(row.underBranch && branch ? { branch, ...extra } : extra).toString()
  return q ? `${path}?${q}` : path
}

/** What the control-center page renders (in the resolution). */
export interface ControlCenterRoute {
  /** `sign-in` when nobody is signed in (status 401). */
  screen: ControlCenterScreen | 'sign-in'
  params: Record<string, string>
  /** The branch the screen is keyed by (branch screens), or null. */
  branch: string | null
  user: { id: string; name: string; email: string; role: string } | null
}
