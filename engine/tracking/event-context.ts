import type {
  EventBotResult,
  EventPage,
  EventPhoneRule,
  EventProperties,
} from '../../schemas/generated/analytics-event'
import type { TrackedUrlParams, VisitorSession } from '../../schemas/generated/visitor-record'
import type { ExperimentAssignment } from '../experiments/variants'
import type { PageIdentity } from '../runtime-contracts'
import type { Brand, PageEntry } from '../snapshot/types'
import { analyticsCookies } from './cookies'

/** Where the browser is: the parts of `location` and `document` an event needs. */
export interface BrowserFacts {
  href: string
  pathname: string
  search: string
  cookie: string
  referrer: string
  userAgent: string
}

export interface EventContextInput {
  eventId: string
  timestamp: string
  brand: Pick<Brand, 'id' | 'name' | 'measurementId'> | null
  /** The brand's display name as shown (with `{product}` filled). */
  brandName?: string
  userId: string
  session: VisitorSession
  page: PageEntry | null
  /** Overrides from the funnel (its name, template and current step). */
  pageIdentity?: PageIdentity
  /** The experiment variant the page was rendered as. */
  experiment?: ExperimentAssignment
  /** The content revision (snapshot id) the page was rendered from (docs/decisions/0800). */
  revision?: string
  phoneRule: EventPhoneRule
  bot: EventBotResult
  urlParams: TrackedUrlParams
  browser: BrowserFacts
  extras?: Record<string, unknown>
}

/** Page fields of the context (spec point 3); smid and xsmid are per brand in the page definition. */
export function eventPage(
  page: PageEntry | null,
  brandId: string | null,
  identity?: PageIdentity,
  experiment?: ExperimentAssignment,
): EventPage {
  if (!page && !identity) return null
  const out: NonNullable<EventPage> = {
    name: identity?.name ?? page?.key ?? '',
    smid: (brandId && page?.smid?.[brandId]) || null,
    xsmid: (brandId && page?.xsmid?.[brandId]) || null,
    title: page?.title ?? null,
    product: page?.product ?? null,
    benefits: page?.benefits ?? [],
    language: page?.language ?? null,
    template: identity?.template ?? page?.template ?? null,
  }
  if (identity?.stepName) out.stepName = identity.stepName
  if (experiment) out.experiment = { id: experiment.id, variant: experiment.variant }
  return out
}

/**
 * The properties of an event: the analytics context (spec point 3) plus referrer, url {full, path,
 * query} and the per-event extras (spec point 7). Context fields win over extras of the same name, so
 * an extra can never disguise where an event came from.
 */
export function buildEventProperties(input: EventContextInput): EventProperties {
  const { browser, brand } = input
  return {
    ...(input.extras ?? {}),
    eventId: input.eventId,
    timestamp: input.timestamp,
    brand: brand
      ? { id: brand.id, name: input.brandName ?? brand.name, measurementId: brand.measurementId ?? null }
      : null,
    userId: input.userId,
    session: input.session,
    page: eventPage(input.page, brand?.id ?? null, input.pageIdentity, input.experiment),
    ...(input.revision ? { revision: input.revision } : {}),
    phoneRule: input.phoneRule,
    url: { full: browser.href, path: browser.pathname, query: browser.search.replace(/^\?/, '') },
    cookies: analyticsCookies(browser.cookie, brand?.measurementId),
    bot: input.bot,
    urlParams: input.urlParams,
    userAgent: browser.userAgent,
    referrer: browser.referrer,
  }
}
