/**
 * The browser's runtime, built once per page load by `startClientRuntime()` (islands) or before
 * hydration and handed to React through context (runtime-context.tsx): error reporting, colour mode,
 * the build check behind `navigate()`, the tracker, the phone line and the auth session. It holds no
 * answer: the server does (docs/decisions/0524). Nothing here is a module-level variable: every part
 * is created here and passed to the parts that need it.
 */
import { CONTROL_CENTER_BRAND_ID } from '../../engine/constants'
import type { Resolution } from '../../engine/render/resolution'
import type { DemandCheckResult, PageViewFn, TrackFn } from '../../engine/runtime-contracts'
import { runPageOnEnter } from '../../engine/tracking/page-on-enter'
import { type PhoneLineControl, startPhoneLine } from '../phone/phone-feature'
import { type AuthControl, startAuthSession } from './auth/auth-session'
import { startBuildCheck } from './build-check'
import { type ColorModeControl, startColorMode } from './color-mode'
import { type ReportError, startErrorReporting } from './error-report'
import { createFormValues, type FormValuesHub } from './form-values'
import { keepPreview } from './keep-preview'
import { createTracker, type Tracker } from './tracking/tracker'

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. */
  replace?: boolean
  /** history.state of the entry. */
  state?: unknown
}

export interface ClientRuntime {
  resolution: Resolution
  track: TrackFn
  pageView: PageViewFn
  /** The demand-check executor of funnel actions (spec point 4); null when it cannot run. */
  demandCheck(): Promise<DemandCheckResult | null>
  lastDemand(): DemandCheckResult | null
  /**
   * The quote answers in the inputs of the page's form, as the form island reads them (the phone
   * lease's payload; a change shortens the lease). Never stored: the server holds the answers (0524).
   */
  formValues: FormValuesHub
  phone: PhoneLineControl
  auth: AuthControl
  colorMode: ColorModeControl
  reportError: ReportError
  /**
   * The one way the page changes its URL in place (funnel steps). Returns false when the build check
   * turned it into a full page load (a new build is out and a chunk failed): the caller stops there.
   */
  navigate(url: string, options?: NavigateOptions): boolean
  /** Called once the page has hydrated: the page view of a non-funnel page, the page's on-enter. */
  hydrated(): void
}

/**
 * `reportError`: a reporter already listening (static pages start it before the rest of the runtime,
 * which waits for idle, so an error in the first second is still reported); else one starts here.
 */
export function startClientRuntime(
  resolution: Resolution,
  reportError: ReportError = startErrorReporting(resolution.buildId),
): ClientRuntime {
  const colorMode = startColorMode(resolution.page?.colorMode)
  // Funnel steps (and the style guide's demo) navigate in place.
  const navigatesInPlace = resolution.view === 'funnel' || resolution.view === 'primitives'
  // A preview shows a branch's content, never the live build's: no build check.
  const buildCheck =
    resolution.buildId && !resolution.preview
      ? startBuildCheck(resolution.buildId, navigatesInPlace, reportError)
      : null
  const formValues = createFormValues()
  let tracker: Tracker | null = null
  const track: TrackFn = (event, properties) => tracker?.track(event, properties)
  const phone = startPhoneLine(resolution, {
    identity: () => tracker?.identity(),
    track,
    formValues,
  })
  tracker = startTracker(resolution, () => {
    const rule = phone.get().rule
    return rule
      ? { id: rule.id, defaultNumber: rule.defaultNumber, placementId: rule.placementId, afid: rule.afid }
      : null
  })
  const auth = startAuthSession()
  // Only staff previews need the preview runtime: public pages never download it.
  if (resolution.preview) {
    const info = resolution.preview
    void import('./preview').then((m) => m.startPreview(info))
  }
  let hydrated = false

  return {
    resolution,
    track,
    pageView: (page, properties) => tracker?.pageView(page, properties),
    demandCheck: () => phone.demandCheck(),
    lastDemand: () => phone.lastDemand(),
    formValues,
    phone,
    auth,
    colorMode,
    reportError,
    navigate(to, { replace = false, state = null } = {}) {
      const url = resolution.preview ? keepPreview(to) : to
      if (buildCheck?.navigating(new URL(url, location.href).href)) return false
      if (replace) history.replaceState(state, '', url)
      else history.pushState(state, '', url)
      return true
    },
    hydrated() {
      if (hydrated) return
      hydrated = true
      document.documentElement.dataset.hydrated = 'true'
      if (!tracker) return
      try {
        tracker.startBotDetection()
        // Funnel pages emit their own page view per step.
        if (resolution.view !== 'funnel')
          tracker.pageView({
            name: resolution.page?.key ?? `error-${resolution.statusCode}`,
            template: resolution.page?.template ?? 'error',
          })
        const plan = runPageOnEnter(resolution.page?.onEnter, tracker.track)
        for (const s of plan.skipped) console.warn(`Page on-enter action skipped: ${s.reason}`, s.action)
      } catch (e) {
        console.error('Tracking could not start:', e)
      }
    },
  }
}

/** The tracker of a brand page; none on the brand index. Measuring must never break the page. */
function startTracker(
  resolution: Resolution,
  phoneRule: Parameters<typeof createTracker>[1],
): Tracker | null {
  // A staff preview is never measured (docs/decisions/0601); nor is the control center's host (its
  // screens and its 404 page): staff activity is in the audit log, not visitor page views.
  if (
    !resolution.brand ||
    resolution.view === 'brand-index' ||
    resolution.brand.id === CONTROL_CENTER_BRAND_ID ||
    resolution.preview
  )
    return null
  try {
    return createTracker(resolution, phoneRule)
  } catch (e) {
    console.error('Tracking could not start:', e)
    return null
  }
}
