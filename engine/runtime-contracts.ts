/**
 * The contracts between features that run in the browser: the funnel machine, tracking, phone lease
 * and demand check meet here, so each can be built and tested without the others.
 */
import type { FieldName } from '../schemas/generated/field'

/** Form values (spec point 3); booleans are true/false, everything else a string. */
export type FormValues = Partial<Record<FieldName, string | boolean>>

/** Emits an analytics `track` event with per-event extras. */
export type TrackFn = (event: string, properties?: Record<string, unknown>) => void

/** Page identity for events (spec point 2): name, template and step name. */
export interface PageIdentity {
  name: string
  template: string
  stepName?: string
}

/** Emits a pageview. */
export type PageViewFn = (page: PageIdentity, properties?: Record<string, unknown>) => void

/** Spec point 7: demand check result. */
export interface DemandCheckResult {
  bid: number
  isLowBid: boolean
}

/** Runs a demand check; resolves null on any failure (errors are ignored). */
export type DemandCheckExecutor = () => Promise<DemandCheckResult | null>

/** Told about form value changes (the phone lease cuts its expiry on quote-field changes). */
export type FormValuesListener = (values: FormValues, changed: readonly FieldName[]) => void

/** Who the visitor is, as the tracking feature knows it (sub_2, sub_3 and the URL parameters). */
export interface VisitorIdentity {
  userId: string
  sessionId: string
  urlParams: Record<string, string | undefined>
}
