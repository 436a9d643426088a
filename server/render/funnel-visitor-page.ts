/**
 * A GET of a funnel step or a thank-you page by a visitor whose answers the server holds
 * (docs/decisions/0230, 0231): the one place where such a page stops being the same for everybody.
 *
 * - A funnel step is placed by the resume rule (`placeVisitor`: the same replay as resumePoint, with
 *   the answers migrated to today's funnel): the step the URL names when the route reaches it, else a
 *   303 to the first step on the route that needs an answer (a step added before it, a field renamed,
 *   a step removed, a fresh entry at the funnel's start). The step is rendered with the answers it
 *   asks for (contact fields left out for a browser that came through a resume link and has not
 *   continued yet: 0232).
 * - A thank-you page shows the number the lead record says was shown, and records it
 *   (`thankYouPhone` event, serverSide): the leased one while its lease runs, else the phone rule's
 *   default, both only in business hours; else none.
 *
 * Either answer is `no-store` and never enters the HTML cache or the fast path (HtmlCache.keyOf refuses
 * it; the fast path steps aside for a request carrying an answer key). A visitor without answers gets
 * the cached page everybody gets.
 */
import { randomUUID } from 'node:crypto'
import type { Context } from 'koa'
import { SERVER_SESSION_COOKIE, TRACKED_URL_PARAMS } from '../../engine/constants'
import { readBuckets } from '../../engine/funnel/buckets'
import { type FunnelPageInfo, THANK_YOU_PHONE } from '../../engine/funnel/funnel-deps'
import { funnelLocation, stepUrl } from '../../engine/funnel/funnel-location'
import { placeVisitor } from '../../engine/funnel/resume'
import { shownAnswers } from '../../engine/funnel/shown-answers'
import { isWithinBusinessHours } from '../../engine/phone/business-hours'
import type { LeasedPhone } from '../../engine/phone/leased-phone'
import { phoneDisplay } from '../../engine/phone/phone-format'
import { selectPhoneRule } from '../../engine/phone/select-phone-rule'
import type { Resolution } from '../../engine/render/resolution'
import type { FormValues } from '../../engine/runtime-contracts'
import { trackEventBody } from '../../engine/tracking/event-body'
import { buildEventProperties } from '../../engine/tracking/event-context'
import { isPaidTraffic } from '../../engine/tracking/paid-flag'
import { captureUrlParams, paidFlagParams } from '../../engine/tracking/url-params'
import type { PhoneRule } from '../../schemas/generated/phone-rule'
import { checkVisitorLease, heldLease, type LeaseVisitor, marketplaceContext } from '../api/visitor-lease'
import type { AppDeps } from '../app-deps'
import { clientOf, originOf } from '../http/request-client'
import { loadBuckets } from '../store/answer-store'
import { eventRow } from '../store/event-rows'
import { heldVisitor } from './funnel-visitor'

/** The template of the page a finished funnel lands on. */
const THANK_YOU_TEMPLATE = 'thank-you'

export const pageInfoOf = (page: NonNullable<Resolution['page']>): FunnelPageInfo => ({
  name: page.key,
  template: page.template,
  destination: page.destination ?? '/',
  allowExternalDestination: page.allowExternalDestination === true,
})

/** Only the tracked parameters (utm_*, click ids, afid) of a query string, never anything else. */
export function trackingQuery(search: string): string {
  const all = new URLSearchParams(search)
  const kept = new URLSearchParams()
  for (const name of TRACKED_URL_PARAMS) {
    const value = all.get(name)
    if (value) kept.set(name, value)
  }
  const s = kept.toString()
  return s ? `?${s}` : ''
}

/**
 * The resolution to render for this visitor, `'answered'` when a redirect was sent, or null when the
 * page is the one everybody gets (no store, no answers held for this browser, not a page of this kind).
 */
export async function visitorPage(
  ctx: Context,
  deps: AppDeps,
  resolution: Resolution,
): Promise<Resolution | 'answered' | null> {
  const store = deps.store
  const isFunnel = resolution.view === 'funnel' && !!resolution.funnel && !!resolution.page
  const isThankYou = resolution.page?.template === THANK_YOU_TEMPLATE && resolution.view !== 'funnel'
  if (!store || (!isFunnel && !isThankYou) || resolution.statusCode !== 200) return null
  const visitor = await heldVisitor(ctx, store.db)
  if (!visitor) return null
  if (isThankYou) return thankYouPage(ctx, deps, resolution, visitor.anonymousId)

  const funnel = resolution.funnel!
  const buckets = await loadBuckets(store.db, visitor.anonymousId)
  const stored = readBuckets(buckets, funnel.formVersion)
  if (Object.keys(stored).length === 0) return null
  const steps = funnel.steps.map((s) => s.name)
  const location = funnelLocation(resolution.pathname, resolution.params, steps)
  const named = location.stepParam === undefined ? -1 : steps.indexOf(location.stepParam)
  const at = named < 0 ? null : named
  const point = await placeVisitor(funnel, pageInfoOf(resolution.page!), stored, at)
  ctx.set('Cache-Control', 'no-store')
  if (point.stepIndex !== at) {
    ctx.status = 303
    ctx.redirect(stepUrl(location.basePath, steps[point.stepIndex], trackingQuery(ctx.search ?? '')))
    return 'answered'
  }
  const step = funnel.steps[point.stepIndex]
  const leased = await stepLease(ctx, deps, resolution, visitor.anonymousId, stored)
  return {
    ...resolution,
    funnelPost: {
      stepIndex: point.stepIndex,
      values: shownAnswers(step, point.values, visitor.contactHidden),
      errors: {},
    },
    // The number the visitor holds, which the browser's lease machine starts from (0235).
    ...(leased ? { visitorPhone: { shown: phoneDisplay(leased.value), source: 'leased', leased } } : {}),
  }
}

/**
 * The lease rule when a step is shown to a visitor with answers (0235): the number held, or a new one
 * when none is held or it is about to expire — the same with JavaScript on and off.
 */
function stepLease(
  ctx: Context,
  deps: AppDeps,
  resolution: Resolution,
  anonymousId: string,
  answers: FormValues,
): Promise<LeasedPhone | null> {
  const tracking = trackingQuery(ctx.search ?? '')
  const visitor: LeaseVisitor = {
    url: `${originOf(ctx)}${ctx.path}${tracking}`,
    ip: clientOf(ctx).ip,
    userAgent: ctx.get('user-agent'),
    urlParams: { ...captureUrlParams(ctx.search ?? '', resolution.params) },
    userId: anonymousId,
    sessionId: ctx.cookies.get(SERVER_SESSION_COOKIE) ?? anonymousId,
  }
  return checkVisitorLease(
    deps,
    anonymousId,
    () => marketplaceContext(resolution, visitor),
    async () => answers,
  )
}

/**
 * The thank-you page of a visitor with answers: the number shown, decided here once and recorded, so
 * the page and `npm run leads -- show` tell the same.
 */
async function thankYouPage(
  ctx: Context,
  deps: AppDeps,
  resolution: Resolution,
  anonymousId: string,
): Promise<Resolution> {
  const store = deps.store!
  const now = Date.now()
  const query = new URLSearchParams(ctx.search ?? '')
  const rule =
    resolution.brand && resolution.thirdParty.marketplace !== false
      ? selectPhoneRule(resolution.phoneRules ?? [], {
          brandId: resolution.brand.id,
          pageKey: resolution.page?.key ?? null,
          utmSource: query.get('utm_source') ?? undefined,
          afid: query.get('afid') ?? undefined,
        })
      : null
  const open = isWithinBusinessHours(now, query.get('utm_medium'))
  const lease = await heldLease(store.db, anonymousId, now)
  const leased = lease?.value ?? null
  const expiresAt = lease?.expiresAt ?? 0
  const number = !open || !rule ? null : (leased ?? rule.defaultNumber ?? null)
  const source = number === null ? 'none' : number === leased ? 'leased' : 'default'
  ctx.set('Cache-Control', 'no-store')
  await recordShown(ctx, deps, resolution, anonymousId, { number, source, rule })
  return {
    ...resolution,
    visitorPhone: {
      shown: number ? phoneDisplay(number) : null,
      source,
      leased: source === 'leased' && leased ? { value: leased, expiresAt } : null,
    },
  }
}

async function recordShown(
  ctx: Context,
  deps: AppDeps,
  resolution: Resolution,
  anonymousId: string,
  shown: { number: string | null; source: string; rule: PhoneRule | null },
): Promise<void> {
  const at = new Date()
  const tracking = trackingQuery(ctx.search ?? '')
  const urlParams = captureUrlParams(ctx.search ?? '', resolution.params)
  const sessionId = ctx.cookies.get(SERVER_SESSION_COOKIE) ?? anonymousId
  const properties = buildEventProperties({
    eventId: randomUUID(),
    timestamp: at.toISOString(),
    brand: resolution.brand,
    brandName: resolution.site.name,
    userId: anonymousId,
    session: {
      id: sessionId,
      paid: isPaidTraffic(paidFlagParams(ctx.search ?? '', resolution.params)),
      urlParams,
    },
    page: resolution.page,
    experiment: resolution.experiment?.preview ? undefined : resolution.experiment,
    revision: resolution.snapshotId,
    phoneRule: shown.rule
      ? {
          defaultNumber: shown.rule.defaultNumber ?? null,
          placementId: shown.rule.placementId,
          afid: shown.rule.afid ?? null,
        }
      : null,
    bot: null,
    urlParams,
    browser: {
      href: `${originOf(ctx)}${ctx.path}${tracking}`,
      pathname: ctx.path,
      search: tracking,
      cookie: ctx.get('cookie'),
      referrer: ctx.get('referer'),
      userAgent: ctx.get('user-agent'),
    },
    extras: { phoneShown: shown.number, phoneSource: shown.source, serverSide: true },
  })
  const body = trackEventBody(
    { sessionId, anonymousId, timestamp: at.toISOString() },
    THANK_YOU_PHONE,
    properties,
  )
  await deps.store!.events.write([eventRow(body, at, clientOf(ctx).ip || null)])
}
