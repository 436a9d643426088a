/**
 * Browser-side services shared by features. Each feature installs its implementation at startup
 * (tracking, demand check, phone lease…); until then the defaults do nothing, so a page never breaks
 * because a feature is missing. Never used during server rendering.
 */

import type {
  DemandCheckExecutor,
  FormValues,
  FormValuesListener,
  PageViewFn,
  TrackFn,
  VisitorIdentity,
} from '../../engine/runtime-contracts'
import type { PhoneRule } from '../../schemas/generated/phone-rule'

export interface ClientServices {
  track: TrackFn
  pageView: PageViewFn
  demandCheck: DemandCheckExecutor
  /** Last demand-check result, for conditions such as `low-bid`. */
  lastDemand: { bid: number; isLowBid: boolean } | null
  /** Latest known form values across funnels (shared bucket). */
  formValues: FormValues
  /** Installed by tracking: user id, session id and URL parameters (phone requests' sub_2/sub_3). */
  identity?: () => VisitorIdentity
  /** The phone rule chosen for this visitor and page, for the event context; null without one. */
  phoneRule: PhoneRule | null
}

export const services: ClientServices = {
  track: () => {},
  pageView: () => {},
  demandCheck: async () => null,
  lastDemand: null,
  formValues: {},
  phoneRule: null,
}

const formListeners = new Set<FormValuesListener>()

/** Subscribe to form value changes; returns the unsubscribe function. */
export function onFormValues(listener: FormValuesListener): () => void {
  formListeners.add(listener)
  return () => formListeners.delete(listener)
}

/** Called by the funnel when values change. */
export function publishFormValues(values: FormValues, changed: readonly (keyof FormValues)[]): void {
  services.formValues = { ...services.formValues, ...values }
  for (const l of formListeners) l(services.formValues, changed)
}

/** Installs feature implementations (call once per feature at startup). */
export function installServices(partial: Partial<ClientServices>): void {
  Object.assign(services, partial)
}
