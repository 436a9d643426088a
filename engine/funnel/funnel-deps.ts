import type { DemandCheckExecutor, FormValues, PageViewFn, TrackFn } from '../runtime-contracts'
import type { BucketStorage } from './buckets'

/** History as the funnel uses it. `state.funnelDepth` counts the funnel's own entries before this one. */
export interface FunnelNavigation {
  /** Replaces the current history entry (redirects keep the query string). */
  replace(url: string, depth: number): void
  /** Adds a history entry (advancing drops the query string). */
  push(url: string, depth: number): void
  /** The browser's back; the machine moves when POPSTATE arrives. */
  back(): void
  /** Leaves the funnel for another page or the destination. */
  leave(url: string): void
}

/** Everything with an effect, injected so the machine runs the same in a browser and in a test. */
export interface FunnelDeps {
  emitter: { track: TrackFn; pageView: PageViewFn }
  demandCheck: DemandCheckExecutor
  storage: BucketStorage
  navigation: FunnelNavigation
  /** Told about every change of an answer (the phone lease shortens its expiry on quote fields). */
  onValuesChanged?: (values: FormValues, changed: readonly (keyof FormValues)[]) => void
}

/** The page the funnel runs on: identity for events and where it finishes. */
export interface FunnelPageInfo {
  name: string
  template: string
  destination: string
  allowExternalDestination: boolean
}

export const FORM_STEP_SUBMITTED = 'formStepSubmitted'
/** Tracked once when a funnel finishes at its destination (not for exits to other pages). */
export const FUNNEL_COMPLETED = 'funnelCompleted'
/** Recorded by a thank-you page the server rendered: the number it showed (docs/decisions/0231). */
export const THANK_YOU_PHONE = 'thankYouPhone'
