/* Generated from schemas/page.schema.json by tools/gen-types.ts. Do not edit: change the schema and run npm run gen:types. */

import type { BrandId, Image, Slug } from './common'
export type { BrandId, Image, Slug }
import type { Action, DemandCheckAction, FinishAction, GoToPageAction, GoToStepAction, SetFieldAction, SingleAction, StayAction, TrackAction } from './action'
export type { Action, DemandCheckAction, FinishAction, GoToPageAction, GoToStepAction, SetFieldAction, SingleAction, StayAction, TrackAction }
import type { AllAnyCondition, AnswerEqualsCondition, AnswerInCondition, Condition, FieldName, LowBidCondition, NotCondition } from './condition'
export type { AllAnyCondition, AnswerEqualsCondition, AnswerInCondition, Condition, FieldName, LowBidCondition, NotCondition }
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
