import type { Resolution } from '../../../engine/render/resolution'
import type { PageIdentity } from '../../../engine/runtime-contracts'
import { runPageOnEnter } from '../../../engine/tracking/page-on-enter'
import { fetchAuthSession } from '../auth/auth-session'
import { installServices, services } from '../services'
import { setPhoneRuleSource } from './phone-rule-source'
import { createTracker, type Tracker } from './tracker'

type Call =
  | { kind: 'track'; event: string; properties?: Record<string, unknown>; at: Date }
  | { kind: 'page'; page: PageIdentity; properties?: Record<string, unknown>; at: Date }

let tracker: Tracker | null = null
let started = false
const early: Call[] = []

// Installed as soon as this module loads in the browser, before hydration: child components' effects
// (the funnel's first pageView) run before the shell's, so calls made before startTracking are kept
// with their time and replayed once the tracker exists.
if (typeof window !== 'undefined') {
  // The phone rule chosen by the phone feature rides on every event (spec point 3).
  setPhoneRuleSource(() => {
    const rule = services.phoneRule
    return rule
      ? { id: rule.id, defaultNumber: rule.defaultNumber, placementId: rule.placementId, afid: rule.afid }
      : null
  })
  installServices({
    track: (event, properties) =>
      tracker
        ? tracker.track(event, properties)
        : early.push({ kind: 'track', event, properties, at: new Date() }),
    pageView: (page, properties) =>
      tracker
        ? tracker.pageView(page, properties)
        : early.push({ kind: 'page', page, properties, at: new Date() }),
  })
}

/**
 * Called from the shell after hydration. Runs once per page load, whatever React does with effects
 * (strict or concurrent rendering): starts the tracker, emits the page view of a non-funnel page
 * (funnel pages emit their own per step), runs the page's on-enter actions, and fetches the auth session.
 */
export function startTracking(resolution: Resolution): void {
  if (started || typeof window === 'undefined') return
  started = true
  void fetchAuthSession()
  if (!resolution.brand || resolution.view === 'brand-index') return
  try {
    const t = createTracker(resolution)
    if (resolution.view !== 'funnel') {
      t.pageView({
        name: resolution.page?.key ?? `error-${resolution.statusCode}`,
        template: resolution.page?.template ?? 'error',
      })
    }
    tracker = t
    for (const c of early.splice(0)) {
      if (c.kind === 'track') t.track(c.event, c.properties, c.at)
      else t.pageView(c.page, c.properties, c.at)
    }
    const plan = runPageOnEnter(resolution.page?.onEnter, t.track)
    for (const s of plan.skipped) console.warn(`Page on-enter action skipped: ${s.reason}`, s.action)
  } catch (e) {
    // Measuring must never break the page.
    console.error('Tracking could not start:', e)
  }
}
