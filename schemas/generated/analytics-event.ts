/* Generated from schemas/analytics-event.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

/**
 * One body of POST /api/event/create (spec point 7): a pageview or a track event. The endpoint also takes an array of up to EVENT_BATCH_MAX of them.
 */
export type AnalyticsEvent = PageEvent | TrackEvent
/**
 * Client time of the event (ISO 8601).
 */
export type Timestamp = string
export type VisitorId = string
export type EventBrand = {
  id: string
  name: string
  measurementId?: string | null
} | null
export type ParamValue = string
export type EventPage = {
  name: string
  smid?: string | null
  xsmid?: string | null
  title?: string | null
  product?: string | null
  /**
   * @maxItems 50
   */
  benefits?: string[]
  language?: string | null
  template?: string | null
  stepName?: string | null
  experiment?: EventExperiment
} | null
export type EventPhoneRule = {
  defaultNumber?: string | null
  placementId?: string | null
  afid?: string | null
  [k: string]: unknown
} | null
/**
 * Bot-detection result: a detected kind, not a bot, or null when detection had not finished.
 */
export type EventBotResult =
  | {
      bot: true
      kind: string
    }
  | {
      bot: false
    }
  | null

export interface PageEvent {
  type: 'page'
  timestamp: Timestamp
  sessionId: VisitorId
  anonymousId: VisitorId
  /**
   * Page name.
   */
  name: string
  /**
   * Page template.
   */
  category: string
  properties: EventProperties
}
/**
 * The analytics event context (spec point 3) plus referrer, url and per-event extras (spec point 7).
 */
export interface EventProperties {
  eventId: VisitorId
  timestamp?: Timestamp
  brand?: EventBrand
  userId: VisitorId
  session: VisitorSession
  page?: EventPage
  /**
   * The content revision (snapshot id) the page was rendered from: with content_publications it names the commit to re-render the page from (docs/decisions/0800).
   */
  revision?: string
  phoneRule?: EventPhoneRule
  url: EventUrl
  cookies?: EventCookies
  bot?: EventBotResult
  urlParams?: TrackedUrlParams
  userAgent?: string
  referrer?: string
  [k: string]: unknown
}
export interface VisitorSession {
  id: VisitorId
  /**
   * Derived paid flag (spec point 3), fixed when the session starts.
   */
  paid: boolean
  urlParams: TrackedUrlParams
  startedAt?: number
}
/**
 * Tracked URL parameters (spec point 3; engine/constants.ts TRACKED_URL_PARAMS).
 */
export interface TrackedUrlParams {
  fbclid?: ParamValue
  gclid?: ParamValue
  tblci?: ParamValue
  token?: ParamValue
  utm_source?: ParamValue
  utm_medium?: ParamValue
  utm_campaign?: ParamValue
  utm_content?: ParamValue
  utm_term?: ParamValue
  afid?: ParamValue
}
/**
 * The running experiment on the page and the variant the visitor saw.
 */
export interface EventExperiment {
  id: string
  variant: string
}
export interface EventUrl {
  full: string
  path: string
  query: string
}
/**
 * _ga, _fbp and the per-measurement session cookie _ga_<measurement id suffix>.
 */
export interface EventCookies {
  [k: string]: string | null
}
export interface TrackEvent {
  type: 'track'
  event: string
  timestamp: Timestamp
  sessionId: VisitorId
  anonymousId: VisitorId
  properties: EventProperties
}
