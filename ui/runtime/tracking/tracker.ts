import { BOT_DETECTION_WAIT_MS } from '../../../engine/constants'
import type { Resolution } from '../../../engine/render/resolution'
import type { PageIdentity } from '../../../engine/runtime-contracts'
import { dataLayerEntry, pageEventBody, trackEventBody } from '../../../engine/tracking/event-body'
import { buildEventProperties } from '../../../engine/tracking/event-context'
import { planIdentity } from '../../../engine/tracking/identity'
import { captureUrlParams, paidFlagParams } from '../../../engine/tracking/url-params'
import { planVisit } from '../../../engine/tracking/visitor-plan'
import type { AnalyticsEvent, EventBotResult } from '../../../schemas/generated/analytics-event'
import type { VisitorRecord } from '../../../schemas/generated/visitor-record'
import { installServices } from '../services'
import { detectBot } from './bot-detection'
import { beaconEvents, sendEvents } from './browser-transport'
import { EventQueue } from './event-queue'
import { currentPhoneRule } from './phone-rule-source'
import { KEYS, local, perTab, readJson, readText, writeJson, writeText } from './storage'
import { postVisitorRecord, startVisitorSync, type VisitorSync } from './visitor-sync'

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[]
    /** Read-only view for operators and tests: the visitor record, bot result and queued events. */
    __funnelworks?: { visitor(): VisitorRecord | null; bot(): EventBotResult; queued(): number }
  }
}

export interface Tracker {
  track(event: string, properties?: Record<string, unknown>, at?: Date): void
  pageView(page: PageIdentity, properties?: Record<string, unknown>, at?: Date): void
}

const newId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`

/**
 * The browser side of the event pipeline for one page load: identity and anonymous-id linking,
 * the visitor record (synced across tabs and to the server), bot detection, and events built with
 * the full context, pushed to window.dataLayer and queued for POST /api/event/create.
 */
export function createTracker(resolution: Resolution): Tracker {
  const now = Date.now()
  const identity = planIdentity(
    {
      userId: readText(local, KEYS.userId),
      anonymousId: readText(local, KEYS.anonymousId),
      anonIdLinked: readText(local, KEYS.anonIdLinked) === 'true',
    },
    newId,
  )
  writeText(local, KEYS.userId, identity.userId)
  writeText(local, KEYS.anonymousId, identity.anonymousId)
  writeText(local, KEYS.anonIdLinked, String(identity.anonIdLinked))

  const search = window.location.search
  const visit = planVisit({
    stored: readJson<VisitorRecord>(local, KEYS.visitor),
    lastActivityAt: Number(readText(local, KEYS.lastActivity)) || null,
    userId: identity.userId,
    anonymousId: identity.anonymousId,
    urlParams: captureUrlParams(search, resolution.params),
    paidParams: paidFlagParams(search, resolution.params),
    now,
    newId,
  })
  let record: VisitorRecord = visit.record
  writeText(local, KEYS.lastActivity, String(now))
  const sync: VisitorSync = startVisitorSync({
    record: visit.changed ? null : visit.record,
    post: async (r) => {
      await postVisitorRecord(r)
      writeText(local, KEYS.visitorSynced, String(r.updatedAt))
    },
    onRecord: (r, source) => {
      record = r
      if (source === 'local') writeJson(local, KEYS.visitor, r)
    },
  })
  // A record the server never acknowledged (a tab closed while the POST was failing) is sent again.
  const unsynced = readText(local, KEYS.visitorSynced) !== String(visit.record.updatedAt)
  if (visit.changed || unsynced) sync.change(visit.record)

  let bot: EventBotResult = null
  const botReady = detectBot().then((r) => {
    bot = r
  })
  let botSettled = false
  const ready = Promise.race([botReady, new Promise((r) => setTimeout(r, BOT_DETECTION_WAIT_MS))]).then(
    () => {
      botSettled = true
    },
  )

  const queue = new EventQueue(
    {
      send: sendEvents,
      beacon: beaconEvents,
      isOnline: () => navigator.onLine !== false,
      setTimeout: (fn, ms) => window.setTimeout(fn, ms),
      clearTimeout: (h) => window.clearTimeout(h as number),
      save: (events) => writeJson(perTab, KEYS.eventQueue, events),
      random: Math.random,
    },
    readJson<AnalyticsEvent[]>(perTab, KEYS.eventQueue) ?? [],
  )
  window.addEventListener('online', () => queue.online())
  const hidden = () => {
    drain()
    queue.pageHidden()
  }
  window.addEventListener('pagehide', hidden)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') hidden()
  })
  void queue.flush()

  window.dataLayer = window.dataLayer ?? []
  window.__funnelworks = { visitor: () => record, bot: () => bot, queued: () => queue.size }
  // The phone feature sends the user and session ids with its marketplace requests (sub_2, sub_3).
  installServices({
    identity: () => ({
      userId: identity.userId,
      sessionId: record.session.id,
      // Newest wins: this page's parameters, then the session's (funnel steps drop the query), then
      // the first touch.
      urlParams: {
        ...record.urlParams,
        ...record.session.urlParams,
        ...captureUrlParams(window.location.search, resolution.params),
      } as Record<string, string | undefined>,
    }),
  })

  let pageIdentity: PageIdentity | undefined
  const brand = resolution.brand

  // Events wait (briefly) for the bot-detection result so that it rides on every event; a page that
  // goes away first sends them without it rather than losing them.
  const pending: (() => void)[] = []
  const drain = () => {
    for (const build of pending.splice(0)) build()
  }
  void ready.then(drain)

  function emit(build: (base: { eventId: string; timestamp: string }) => AnalyticsEvent, at: Date): void {
    const timestamp = at.toISOString()
    const eventId = newId()
    pending.push(() => {
      const body = build({ eventId, timestamp })
      window.dataLayer!.push(dataLayerEntry(body))
      queue.enqueue(body)
      writeText(local, KEYS.lastActivity, String(Date.now()))
    })
    if (botSettled) drain()
  }

  /**
   * What an event says about the visitor, the page and the browser, captured when it happens: the
   * event may be built later (it waits for bot detection), by which time a funnel has moved on to
   * another step and URL. Only the bot result is read at build time.
   */
  function capture(pageAtCall: PageIdentity | undefined, extras?: Record<string, unknown>) {
    const at = {
      userId: record.userId,
      session: record.session,
      anonymousId: record.anonymousId,
      pageIdentity: pageAtCall,
      phoneRule: currentPhoneRule(),
      urlParams: captureUrlParams(window.location.search, resolution.params),
      browser: {
        href: window.location.href,
        pathname: window.location.pathname,
        search: window.location.search,
        cookie: document.cookie,
        referrer: document.referrer,
        userAgent: navigator.userAgent,
      },
    }
    return (base: { eventId: string; timestamp: string }) => ({
      ids: { timestamp: base.timestamp, sessionId: at.session.id, anonymousId: at.anonymousId },
      properties: buildEventProperties({
        ...base,
        brand: brand ?? null,
        brandName: resolution.site.name,
        userId: at.userId,
        session: at.session,
        page: resolution.page,
        pageIdentity: at.pageIdentity,
        // A preview is not an exposure: previews stay out of the experiment's results.
        experiment: resolution.experiment?.preview ? undefined : resolution.experiment,
        phoneRule: at.phoneRule,
        bot,
        urlParams: at.urlParams,
        browser: at.browser,
        extras,
      }),
    })
  }

  const tracker: Tracker = {
    track(event, extras, at = new Date()) {
      const context = capture(pageIdentity, extras)
      emit((base) => {
        const { ids, properties } = context(base)
        return trackEventBody(ids, event, properties)
      }, at)
    },
    pageView(page, extras, at = new Date()) {
      pageIdentity = page
      const context = capture(page, page.stepName ? { ...extras, stepName: page.stepName } : extras)
      emit((base) => {
        const { ids, properties } = context(base)
        return pageEventBody(ids, page.name, page.template, properties)
      }, at)
    },
  }
  if (identity.anonLink) tracker.track('anonLink', { oldUserId: identity.anonLink.oldUserId })
  return tracker
}
