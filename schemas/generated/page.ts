/* Generated from schemas/page.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

export type BrandId = string
/**
 * Runs once after hydration with the event-tracking function.
 */
export type Action = SingleAction[] | SingleAction
export type SingleAction =
  | DemandCheckAction
  | TrackAction
  | SetFieldAction
  | GoToStepAction
  | GoToPageAction
  | StayAction
  | FinishAction
/**
 * A named predicate the engine evaluates; definitions never hold code.
 */
export type Condition =
  AnswerEqualsCondition | AnswerInCondition | LowBidCondition | NotCondition | AllAnyCondition
export type FieldName =
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phone'
  | 'address'
  | 'zipcode'
  | 'currentlyInsured'
  | 'insuranceCompany'
  | 'vehicleAmount'
  | 'vehicleMake'
  | 'homeowner'
  | 'creditRating'
  | 'haveMedicare'
  | 'haveMedicaid'
export type Slug = string

/**
 * A page: its route metadata and its configuration (spec points 2 and 3). One file in definitions/pages/.
 */
export interface Page {
  $schema?: string
  /**
   * Page name in events and the control center. Defaults to the file name.
   */
  key?: string
  /**
   * Route pattern. Defaults to /<file name>. `{name}` is a required segment, `{name?}` an optional one, `{name...}` one or more trailing segments.
   */
  path?: string
  /**
   * More route patterns served by the same page, e.g. the `{token}/{step?}` variant of a funnel.
   */
  aliases?: string[]
  /**
   * Brand ids this route is served on. A route is available only on these brands.
   */
  brands: BrandId[]
  /**
   * Per brand id.
   */
  smid?: {
    [k: string]: string
  }
  /**
   * Per brand id.
   */
  xsmid?: {
    [k: string]: string
  }
  /**
   * Route validity checks from the registry (engine/routing/route-middleware.ts). Failure gives a 404.
   */
  validate?: RouteMiddlewareRef[]
  /**
   * Force a colour mode on this route. Forcing `system` is refused with a warning only.
   */
  colorMode?: 'light' | 'dark' | 'system'
  /**
   * How the page renders. `article` serves the article whose slug matches the `{slug...}` parameter; `article-index` lists articles.
   */
  template:
    | 'home'
    | 'landing'
    | 'funnel'
    | 'legal'
    | 'review'
    | 'article'
    | 'article-index'
    | 'thank-you'
    | 'control-center'
  /**
   * Page title; the document title is `title - site name`.
   */
  title?: string
  /**
   * Meta description.
   */
  description?: string
  headline?: string
  subheadline?: string
  image?: Image
  /**
   * Where a finished funnel or the call to action goes: a relative path, or an https URL when allowExternalDestination is true.
   */
  destination?: string
  allowExternalDestination?: boolean
  /**
   * Product name; fills `{product}` in a brand name.
   */
  product?: string
  benefits?: string[]
  language?: 'english' | 'es'
  /**
   * Id of the funnel this page runs (template funnel).
   */
  form?: string
  /**
   * false makes the page noindex.
   */
  indexable?: boolean
  onEnter?: Action
  /**
   * Which legal text a `legal` page shows.
   */
  legal?: 'privacy' | 'tos'
  /**
   * Carrier a review page is about.
   */
  carrier?: string
  /**
   * Ids of documents in definitions/articles/ listed under "Further reading" (review pages).
   */
  relatedArticles?: Slug[]
  cta?: CallToAction
  sections?: ContentSection[]
  faq?: FaqEntry[]
  /**
   * Rows of a review page's plan-feature table.
   */
  comparison?: ComparisonRow[]
}
export interface RouteMiddlewareRef {
  middleware: string
  params?: {}
}
/**
 * An image asset. `src` is a path under ui/public (starting with /) or an https URL.
 */
export interface Image {
  src: string
  /**
   * Text read to screen readers; empty only for decorative images.
   */
  alt: string
  width: number
  height: number
}
/**
 * Ask the ad marketplace for demand (spec point 7); the bid and isLowBid become available to later conditions.
 */
export interface DemandCheckAction {
  type: 'demand-check'
}
/**
 * Emit an analytics event.
 */
export interface TrackAction {
  type: 'track'
  event: string
  properties?: {
    [k: string]: string | number | boolean | null
  }
  when?: Condition
}
export interface AnswerEqualsCondition {
  type: 'answer-equals'
  field: FieldName
  value: string | boolean | number
}
export interface AnswerInCondition {
  type: 'answer-in'
  field: FieldName
  /**
   * @minItems 1
   */
  values: [string | boolean | number, ...(string | boolean | number)[]]
}
export interface LowBidCondition {
  type: 'low-bid' | 'not-low-bid'
}
export interface NotCondition {
  type: 'not'
  condition: Condition
}
export interface AllAnyCondition {
  type: 'all' | 'any'
  /**
   * @minItems 1
   */
  conditions: [Condition, ...Condition[]]
}
export interface SetFieldAction {
  type: 'set-field'
  field: FieldName
  value: string | boolean
  when?: Condition
}
/**
 * Route to another step of the same funnel (by step name) when the condition holds.
 */
export interface GoToStepAction {
  type: 'go-to-step'
  step: string
  when?: Condition
}
/**
 * Leave the funnel for another page (relative path) when the condition holds.
 */
export interface GoToPageAction {
  type: 'go-to-page'
  path: string
  when?: Condition
}
/**
 * Stop advancing (the spec's on-submit returning false) when the condition holds.
 */
export interface StayAction {
  type: 'stay'
  when?: Condition
}
/**
 * Finish the funnel now, going to the page's destination.
 */
export interface FinishAction {
  type: 'finish'
  when?: Condition
}
export interface CallToAction {
  label: string
  /**
   * Relative path; defaults to the page's destination.
   */
  href?: string
  /**
   * Also offer the tracked phone number beside the call to action (only in business hours).
   */
  phone?: boolean
}
export interface ContentSection {
  heading: string
  /**
   * Paragraphs.
   *
   * @minItems 1
   */
  body: [string, ...string[]]
  bullets?: string[]
}
export interface FaqEntry {
  question: string
  answer: string
}
export interface ComparisonRow {
  feature: string
  value: string
  note?: string
}
