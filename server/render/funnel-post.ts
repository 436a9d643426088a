/**
 * A funnel step posted as an HTML form (docs/decisions/0216, 0230): every submit, with or without
 * JavaScript, is run here — the server is the one interpreter of funnel steps and `funnel_answers` the
 * one copy of a visitor's answers. The visitor is first placed by the resume rule (a step the route no
 * longer reaches after a content change sends them to the step it now requires, keeping what they
 * posted); then the funnel machine runs with the stored answers; the step is shown again with its
 * errors (422) or the visitor is sent on with 303 See Other. The events (in the order they happened:
 * migration 0019) and the consent record are stored once, marked `serverSide: true`. No answer is ever
 * put in a URL. A script that enhances the form speaks the same contract (0230).
 */
import { randomUUID } from 'node:crypto'
import type { Context } from 'koa'
import { fillConsent } from '../../engine/consent/consent-text'
import {
  FUNNEL_POST_BODY_LIMIT_BYTES,
  SERVER_SESSION_COOKIE,
  SESSION_IDLE_TIMEOUT_MS,
} from '../../engine/constants'
import {
  formVersionBucketKey,
  mergeIntoBuckets,
  readBuckets,
  SHARED_BUCKET_KEY,
} from '../../engine/funnel/buckets'
import { FORM_STEP_SUBMITTED, FUNNEL_COMPLETED, type FunnelPageInfo } from '../../engine/funnel/funnel-deps'
import { funnelLocation, stepUrl } from '../../engine/funnel/funnel-location'
import { POSTED_ACTION_FIELD, POSTED_RESTART } from '../../engine/funnel/posted-fields'
import { postedEvent, runPostedStep } from '../../engine/funnel/posted-step'
import { placeVisitor } from '../../engine/funnel/resume'
import { shownAnswers } from '../../engine/funnel/shown-answers'
import { validateStep } from '../../engine/funnel/validate-field'
import { parseDemandCheckAnswer } from '../../engine/phone/demand-check'
import { demandCheckBody } from '../../engine/phone/payloads'
import type { Resolution } from '../../engine/render/resolution'
import type { FormValues, PageIdentity } from '../../engine/runtime-contracts'
import { pageEventBody, trackEventBody } from '../../engine/tracking/event-body'
import { buildEventProperties } from '../../engine/tracking/event-context'
import { isPaidTraffic } from '../../engine/tracking/paid-flag'
import { captureUrlParams, paidFlagParams } from '../../engine/tracking/url-params'
import type { AnalyticsEvent } from '../../schemas/generated/analytics-event'
import { USER_AGENT_MAX } from '../api/consent'
import { checkDemand } from '../api/mediaalpha'
import { checkVisitorLease, type LeaseVisitor, marketplaceContext, quoteChanged } from '../api/visitor-lease'
import type { AppDeps } from '../app-deps'
import { ConsentRegistry } from '../consent/consent-registry'
import { sha256Hex } from '../consent/consent-versions'
import { controlCharacterField } from '../http/control-characters'
import { HttpError } from '../http/http-error'
import { discardBody, readBytes } from '../http/read-json'
import { clientOf, originOf } from '../http/request-client'
import { sameOrigin } from '../http/same-origin-writes'
import {
  contactHidden,
  endResumeLinks,
  type LoadedBuckets,
  loadBuckets,
  showContact,
} from '../store/answer-store'
import { type ConsentRecordRow, insertConsentRecords } from '../store/consent-store'
import { eventRow } from '../store/event-rows'
import { postingVisitor, requestKeyHash } from './funnel-visitor'
import { pageInfoOf, trackingQuery } from './funnel-visitor-page'
import { renderResolution } from './vike-render'

/** An id we issued (a UUID); anything else in the cookie is replaced. */
const ISSUED_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The handler for POSTs of funnel step URLs; one consent registry for the server's lifetime. */
export function funnelPostHandler(deps: AppDeps) {
  const registry = deps.store ? new ConsentRegistry(deps.store.db, deps.snapshots) : null
  return async (ctx: Context, resolution: Resolution): Promise<void> => {
    const store = deps.store
    const funnel = resolution.funnel!
    const page = resolution.page!
    checkSameOrigin(ctx)
    if (!ctx.is('application/x-www-form-urlencoded')) {
      discardBody(ctx)
      throw new HttpError(
        415,
        `Content-Type: post the step as application/x-www-form-urlencoded (got ${ctx.get('content-type') || 'none'})`,
        { close: true },
      )
    }
    let form: URLSearchParams
    try {
      form = new URLSearchParams(utf8.decode(await readBytes(ctx, FUNNEL_POST_BODY_LIMIT_BYTES)))
    } catch (e) {
      if (e instanceof HttpError) throw e
      throw new HttpError(400, 'body: is not valid UTF-8')
    }
    const controlField = controlCharacterField(form)
    if (controlField !== null)
      throw new HttpError(400, `${controlField}: contains a control character (such as NUL)`)
    if (!store) throw new HttpError(503, 'Answers cannot be kept right now; please try again shortly')

    const anonymousId = await postingVisitor(ctx, store.db, deps.newVisitors)
    const sessionId = visitorCookie(ctx, SERVER_SESSION_COOKIE, SESSION_IDLE_TIMEOUT_MS)
    // The URL as events and records tell it: the path and the tracked parameters, nothing else.
    const tracking = trackingQuery(ctx.search ?? '')
    const href = `${originOf(ctx)}${ctx.path}${tracking}`
    const location = funnelLocation(
      resolution.pathname,
      resolution.params,
      funnel.steps.map((s) => s.name),
    )
    const stepIndex = Math.max(
      0,
      funnel.steps.findIndex((s) => s.name === location.stepParam),
    )
    const step = funnel.steps[stepIndex]
    const buckets = await loadBuckets(store.db, anonymousId)
    const info: FunnelPageInfo = pageInfoOf(page)
    const key = requestKeyHash(ctx)
    const hidden = key ? await contactHidden(store.db, anonymousId, key) : false
    const goTo = (url: string) => {
      ctx.set('Cache-Control', 'no-store')
      ctx.status = 303
      ctx.redirect(url.startsWith('/') ? withQuery(url, tracking) : url)
    }

    // Start over (0232): this funnel's answers are forgotten and its resume links end.
    if (form.get(POSTED_ACTION_FIELD) === POSTED_RESTART) {
      forgetFunnel(buckets, funnel)
      await store.db.transaction(async (tx) => {
        await buckets.save(tx)
        await endResumeLinks(tx, anonymousId)
      })
      return goTo(stepUrl(location.basePath, funnel.steps[0].name))
    }

    // Where the visitor stands (0230): a step the route from the start no longer reaches with the stored
    // answers (a step added before it, a field renamed) is not run; what was posted for it is kept
    // (the fields that pass) and the visitor goes to the step the funnel now requires.
    const stored = readBuckets(buckets, funnel.formVersion)
    const place = await placeVisitor(funnel, info, stored, stepIndex)
    if (place.stepIndex !== stepIndex) {
      const posted = postedEvent(step, form)
      if (posted.type === 'SUBMIT' && posted.values) {
        const errors = validateStep(step.fields, posted.values, funnel.text.messages)
        const valid = Object.fromEntries(
          Object.entries(posted.values).filter(([name]) => !errors[name as keyof typeof errors]),
        )
        if (Object.keys(valid).length) mergeIntoBuckets(buckets, funnel.formVersion, valid)
        await buckets.save(store.db)
      }
      return goTo(stepUrl(location.basePath, funnel.steps[place.stepIndex].name))
    }

    const events: AnalyticsEvent[] = []
    const consents: Promise<ConsentRecordRow | null>[] = []
    let pageIdentity: PageIdentity | undefined
    const paramsOfUrl = captureUrlParams(ctx.search ?? '', resolution.params)
    const session = {
      id: sessionId,
      paid: isPaidTraffic(paidFlagParams(ctx.search ?? '', resolution.params)),
      urlParams: paramsOfUrl,
    }
    const properties = (extras: Record<string, unknown>) =>
      buildEventProperties({
        eventId: randomUUID(),
        timestamp: new Date().toISOString(),
        brand: resolution.brand,
        brandName: resolution.site.name,
        userId: anonymousId,
        session,
        page,
        pageIdentity,
        experiment: resolution.experiment?.preview ? undefined : resolution.experiment,
        revision: resolution.snapshotId,
        phoneRule: null,
        bot: null,
        urlParams: paramsOfUrl,
        browser: {
          href,
          pathname: ctx.path,
          search: tracking,
          cookie: ctx.get('cookie'),
          referrer: ctx.get('referer'),
          userAgent: ctx.get('user-agent'),
        },
        extras: { ...extras, serverSide: true },
      })
    const ids = () => ({ sessionId, anonymousId, timestamp: new Date().toISOString() })

    const outcome = await runPostedStep(
      {
        funnel,
        page: info,
        stepParam: step.name,
        basePath: location.basePath,
        search: '',
        // Answers kept from an earlier revision of the funnel are migrated first (0220).
        values: place.values,
        demand: null,
      },
      postedEvent(step, form),
      {
        storage: buckets,
        // A step's demand check runs here, with the answers the server holds (the posted ones are
        // stored before on-submit actions run): the browser keeps no copy (docs/decisions/0524).
        demandCheck: async () => {
          const result = parseDemandCheckAnswer(
            await demandForPost(deps, resolution, {
              values: readBuckets(buckets, funnel.formVersion),
              url: href,
              ip: clientOf(ctx).ip,
              userAgent: ctx.get('user-agent'),
              urlParams: { ...paramsOfUrl },
              userId: anonymousId,
              sessionId,
            }),
          )
          if (result)
            events.push(
              trackEventBody(
                ids(),
                'lowBidResult',
                properties({ bid: result.bid, isLowBid: result.isLowBid }),
              ),
            )
          return result
        },
        emitter: {
          track: (event, extras = {}) => {
            events.push(trackEventBody(ids(), event, properties(extras)))
            if (event === FORM_STEP_SUBMITTED)
              consents.push(
                consentRow(ctx, deps, registry, resolution, extras, { sessionId, anonymousId, href }),
              )
          },
          pageView: (identity, extras = {}) => {
            pageIdentity = identity
            const withStep = identity.stepName ? { ...extras, stepName: identity.stepName } : extras
            events.push(pageEventBody(ids(), identity.name, identity.template, properties(withStep)))
          },
        },
      },
    )

    const { ip } = clientOf(ctx)
    const now = new Date()
    const records = (await Promise.all(consents)).filter((r) => r !== null)
    await store.db.transaction(async (tx) => {
      await buckets.save(tx)
      if (records.length) await insertConsentRecords(tx, records)
    })
    if (events.length) await store.events.write(events.map((e) => eventRow(e, now, ip || null)))
    // This browser has continued the funnel itself: its contact details are its own again (0232).
    if (hidden && key && outcome.kind === 'go') await showContact(store.db, anonymousId, key)

    // A finished funnel ends its resume links (0232).
    const completed =
      outcome.kind === 'go' && events.some((e) => e.type === 'track' && e.event === FUNNEL_COMPLETED)
    if (completed) await endResumeLinks(store.db, anonymousId)
    // The visitor's phone lease (0235): a posted quote change leases at once, with every answer held;
    // else a number is leased only when none is held or it is about to expire. Done before the visitor
    // is sent on, so the thank-you page shows what the lead record says (0221, 0231).
    if (outcome.kind === 'go') {
      const answers = readBuckets(buckets, funnel.formVersion)
      const visitor: LeaseVisitor = {
        url: outcome.url.startsWith('/')
          ? `${originOf(ctx)}${withQuery(outcome.url, tracking)}`
          : outcome.url,
        ip,
        userAgent: ctx.get('user-agent'),
        urlParams: { ...paramsOfUrl },
        userId: anonymousId,
        sessionId,
      }
      await checkVisitorLease(
        deps,
        anonymousId,
        () => marketplaceContext(resolution, visitor),
        async () => answers,
        quoteChanged(stored, answers),
      )
    }
    ctx.set('Cache-Control', 'no-store')
    if (outcome.kind === 'refused') throw new HttpError(409, 'This form cannot continue from this step')
    if (outcome.kind === 'go') return goTo(outcome.url)
    const errors = Object.keys(outcome.errors).some((k) => outcome.errors[k as keyof typeof outcome.errors])
    const typed = postedEvent(step, form)
    const shownStep = funnel.steps[outcome.stepIndex]
    await renderResolution(ctx, {
      ...resolution,
      statusCode: errors ? 422 : 200,
      funnelPost: {
        stepIndex: outcome.stepIndex,
        // The shown step's answers; what this browser just typed is its own to see again.
        values: {
          ...shownAnswers(shownStep, outcome.values, hidden),
          ...(typed.type === 'SUBMIT' && shownStep === step ? typed.values : {}),
        },
        errors: outcome.errors,
      },
    })
    ctx.set('Cache-Control', 'no-store')
  }
}

/**
 * A cross-site page must not post answers in a visitor's name: an Origin (or, without one, a Referer)
 * naming another origin (scheme, host or port) is refused; a request with neither (an old browser, curl) carries no
 * credentials worth forging — the answers are anonymous.
 */
export function checkSameOrigin(ctx: Context): void {
  const claimed = ctx.get('origin') || ctx.get('referer')
  if ((claimed && !sameOrigin(claimed, ctx)) || ctx.get('sec-fetch-site') === 'cross-site') {
    discardBody(ctx)
    throw new HttpError(403, `Origin: ${claimed || 'another site'} may not post this form`, { close: true })
  }
}

/** The id in a visitor cookie we issued, renewed for `maxAge`; a new one when missing or not ours. */
function visitorCookie(ctx: Context, name: string, maxAge: number): string {
  const held = ctx.cookies.get(name)
  const id = held && ISSUED_ID.test(held) ? held : randomUUID()
  ctx.cookies.set(name, id, {
    maxAge,
    httpOnly: true,
    sameSite: 'lax',
    secure: clientOf(ctx).protocol === 'https',
    overwrite: true,
  })
  return id
}

const withQuery = (path: string, query: string) =>
  query ? `${path}${path.includes('?') ? '&' : '?'}${query.slice(1)}` : path

/** The marketplace's answer to a demand check of a posted step (the page's phone rule), or null. */
async function demandForPost(
  deps: AppDeps,
  resolution: Resolution,
  visitor: LeaseVisitor & { values: FormValues },
): Promise<unknown> {
  const context = marketplaceContext(resolution, visitor)
  return context ? checkDemand(deps, demandCheckBody(context, visitor.values), visitor.ip) : null
}

/** The consent record of a submitted step that showed a consent text (docs/decisions/0800), as the browser sends it. */
async function consentRow(
  ctx: Context,
  deps: AppDeps,
  registry: ConsentRegistry | null,
  resolution: Resolution,
  submitted: Record<string, unknown>,
  who: { sessionId: string; anonymousId: string; href: string },
): Promise<ConsentRecordRow | null> {
  const { brand, page, consent, funnel } = resolution
  const step = funnel?.steps.find((s) => s.name === submitted.stepName)
  const seller = brand?.ownerLegalName
  if (!brand || !page || !consent || !seller || !step || !registry) return null
  if (!step.fields.some((f) => f.kind === 'tel')) return null
  await registry.find(consent.version)
  const single = step.fields.length === 1 && ['yes-no', 'choice'].includes(step.fields[0].kind)
  const buttonLabel = single ? step.title : (step.submitLabel ?? funnel!.text.funnel.continue)
  const text = fillConsent(consent.template, { sellerLegalName: seller, buttonLabel })
  const experiment = resolution.experiment?.preview ? undefined : resolution.experiment
  const body = {
    type: 'consent' as const,
    id: randomUUID(),
    sessionId: who.sessionId,
    anonymousId: who.anonymousId,
    userId: who.anonymousId,
    brand: brand.id,
    pageKey: page.key,
    formVersion: String(submitted.formVersion),
    stepName: step.name,
    stepNumber: Number(submitted.stepNumber),
    consent: {
      id: consent.id,
      version: consent.version,
      text,
      sha256: sha256Hex(text),
      seller,
      buttonLabel,
    },
    fields: step.fields.map((f) => f.name),
    url: who.href,
    snapshotId: resolution.snapshotId,
    ...(experiment ? { experiment: { id: experiment.id, variant: experiment.variant } } : {}),
  }
  return {
    id: body.id,
    received_at: new Date().toISOString(),
    session_id: body.sessionId,
    anonymous_id: body.anonymousId,
    user_id: body.userId,
    brand_id: body.brand,
    page_key: body.pageKey,
    form_version: body.formVersion,
    step_name: body.stepName,
    step_number: body.stepNumber,
    consent_id: consent.id,
    version: consent.version,
    text,
    text_sha256: body.consent.sha256,
    seller,
    button_label: buttonLabel,
    fields: body.fields,
    url: body.url,
    ip: clientOf(ctx).ip || null,
    user_agent: ctx.get('user-agent').slice(0, USER_AGENT_MAX) || null,
    snapshot_id: resolution.snapshotId,
    content_commit: deps.liveCommit?.() ?? null,
    experiment: body.experiment ?? null,
    body,
  }
}

/** Start over: the funnel's own fields leave the shared bucket, and its form-version bucket is emptied. */
function forgetFunnel(buckets: LoadedBuckets, funnel: NonNullable<Resolution['funnel']>): void {
  const names = new Set(funnel.steps.flatMap((s) => s.fields.map((f) => f.name as string)))
  buckets.write(formVersionBucketKey(funnel.formVersion), {})
  const shared = buckets.read(SHARED_BUCKET_KEY)
  buckets.write(
    SHARED_BUCKET_KEY,
    Object.fromEntries(Object.entries(shared).filter(([k]) => !names.has(k))) as typeof shared,
  )
}
