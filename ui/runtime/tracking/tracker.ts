import {
  ANONYMOUS_ID_COOKIE,
  BOT_DETECTION_WAIT_MS,
  FUNNEL_ANSWERS_TTL_MS,
  SERVER_SESSION_COOKIE,
  SESSION_IDLE_TIMEOUT_MS,
} from '../../../engine/constants'
import type { Resolution } from '../../../engine/render/resolution'
import type { PageIdentity, VisitorIdentity } from '../../../engine/runtime-contracts'
import { dataLayerEntry, pageEventBody, trackEventBody } from '../../../engine/tracking/event-body'
import { buildEventProperties } from '../../../engine/tracking/event-context'
import { planIdentity } from '../../../engine/tracking/identity'
import { captureUrlParams, paidFlagParams } from '../../../engine/tracking/url-params'
import { planVisit } from '../../../engine/tracking/visitor-plan'
import type {
  AnalyticsEvent,
  EventBotResult,
  EventPhoneRule,
} from '../../../schemas/generated/analytics-event'
import type { ConsentRecordBody } from '../../../schemas/generated/api-consent-record'
import type { VisitorRecord } from '../../../schemas/generated/visitor-record'
import { readCookie } from '../cookies'
import { detectBot } from './bot-detection'
import { beaconEvents, sendEvents } from './browser-transport'
import { EventQueue, type QueuedItem } from './event-queue'
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
  track(event: string, properties?: Record<string, unknown>): void
  pageView(page: PageIdentity, properties?: Record<string, unknown>): void
  /** Starts bot detection (spec point 4); until it answers or its wait ends, events are held. */
  startBotDetection(): void
  /** Who the visitor is: user and session ids and the URL parameters (phone requests' sub_2/sub_3). */
  identity(): VisitorIdentity
  /** Queues a consent record (docs/decisions/0800) beside the events, stamped with the visitor's ids. */
  consent(record: ConsentRecordDraft): void
}

/** A consent record before the tracker adds who the visitor is. */
export type ConsentRecordDraft = Omit<
  ConsentRecordBody,
  'id' | 'sessionId' | 'anonymousId' | 'userId' | 'type'
>

const newId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`

/**
 * The browser side of the event pipeline for one page load: identity and anonymous-id linking,
 * the visitor record (synced across tabs and to the server), bot detection, and events built with
 * the full context, pushed to window.dataLayer and queued for POST /api/event/create.
 */
export function createTracker(
  resolution: Resolution,
  /** The phone rule chosen for this visitor and page, carried by every event (spec point 3). */
  phoneRule: () => EventPhoneRule,
): Tracker {
  const now = Date.now()
  // A browser without a stored id takes the one the server gave it on a step posted without
  // JavaScript (docs/decisions/0220): one anonymous id on both paths.
  const storedId = readText(local, KEYS.anonymousId)
  const serverId = storedId ? null : readCookie(ANONYMOUS_ID_COOKIE)
  const identity = planIdentity(
    {
      userId: readText(local, KEYS.userId),
      anonymousId: storedId ?? serverId,
      anonIdLinked: serverId !== null || readText(local, KEYS.anonIdLinked) === 'true',
    },
    newId,
  )
  writeText(local, KEYS.userId, identity.userId)
  writeText(local, KEYS.anonymousId, identity.anonymousId)
  // The server keeps a funnel's answers under the id of this cookie (docs/decisions/0220, 0524): a
  // browser that has none yet tells it its id, so the step it posts next is the same visitor's. A
  // cookie the server set is never replaced (its answers are under that id).
  if (readCookie(ANONYMOUS_ID_COOKIE) === null)
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we serve
    document.cookie = `${ANONYMOUS_ID_COOKIE}=${encodeURIComponent(identity.anonymousId)}; Max-Age=${FUNNEL_ANSWERS_TTL_MS / 1000}; Path=/; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`
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
  // The steps this browser posts are recorded by the server under its session cookie: it takes this
  // session's id when it has none yet (a cookie the server set is httpOnly, and this write is ignored).
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we serve
  document.cookie = `${SERVER_SESSION_COOKIE}=${encodeURIComponent(record.session.id)}; Max-Age=${SESSION_IDLE_TIMEOUT_MS / 1000}; Path=/; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`
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
  let botSettled = false

  // Events wait (briefly) in the queue for the bot-detection result so that it rides on every event;
  // a page that goes away first sends them without it rather than losing them.
  const withBot = (e: QueuedItem): QueuedItem => {
    if (e.type === 'consent') return e
    const done = { ...e, properties: { ...e.properties, bot } } as AnalyticsEvent
    window.dataLayer!.push(dataLayerEntry(done))
    return done
  }
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
    readJson<QueuedItem[]>(perTab, KEYS.eventQueue) ?? [],
  )
  queue.hold()
  window.addEventListener('online', () => queue.online())
  const hidden = () => {
    queue.release(withBot)
    queue.pageHidden()
  }
  window.addEventListener('pagehide', hidden)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') hidden()
  })
  void queue.flush()

  window.dataLayer = window.dataLayer ?? []
  window.__funnelworks = { visitor: () => record, bot: () => bot, queued: () => queue.size }
  let pageIdentity: PageIdentity | undefined
  const brand = resolution.brand

  function emit(event: AnalyticsEvent): void {
    if (botSettled) window.dataLayer!.push(dataLayerEntry(event))
    queue.enqueue(event)
    writeText(local, KEYS.lastActivity, String(Date.now()))
  }

  /** What an event says about the visitor, the page and the browser, as it is when it happens. */
  function context(pageAtCall: PageIdentity | undefined, extras?: Record<string, unknown>) {
    const ids = {
      timestamp: new Date().toISOString(),
      sessionId: record.session.id,
      anonymousId: record.anonymousId,
    }
    const properties = buildEventProperties({
      eventId: newId(),
      timestamp: ids.timestamp,
      brand: brand ?? null,
      brandName: resolution.site.name,
      userId: record.userId,
      session: record.session,
      page: resolution.page,
      pageIdentity: pageAtCall,
      // A preview is not an exposure: previews stay out of the experiment's results.
      experiment: resolution.experiment?.preview ? undefined : resolution.experiment,
      revision: resolution.snapshotId,
      phoneRule: phoneRule(),
      bot,
      urlParams: captureUrlParams(window.location.search, resolution.params),
      browser: {
        href: window.location.href,
        pathname: window.location.pathname,
        search: window.location.search,
        cookie: document.cookie,
        referrer: document.referrer,
        userAgent: navigator.userAgent,
      },
      extras,
    })
    return { ids, properties }
  }

  const tracker: Tracker = {
    track(event, extras) {
      const { ids, properties } = context(pageIdentity, extras)
      emit(trackEventBody(ids, event, properties))
    },
    pageView(page, extras) {
      pageIdentity = page
      const { ids, properties } = context(
        page,
        page.stepName ? { ...extras, stepName: page.stepName } : extras,
      )
      emit(pageEventBody(ids, page.name, page.template, properties))
    },
    startBotDetection() {
      // After hydration, so it never delays the page; events wait for it at most BOT_DETECTION_WAIT_MS.
      const detected = detectBot().then((r) => {
        bot = r
      })
      void Promise.race([detected, new Promise((r) => setTimeout(r, BOT_DETECTION_WAIT_MS))]).then(() => {
        botSettled = true
        queue.release(withBot)
      })
    },
    consent(draft) {
      queue.enqueue({
        ...draft,
        type: 'consent',
        id: newId(),
        sessionId: record.session.id,
        anonymousId: record.anonymousId,
        userId: record.userId,
      })
      writeText(local, KEYS.lastActivity, String(Date.now()))
    },
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
  }
  if (identity.anonLink) tracker.track('anonLink', { oldUserId: identity.anonLink.oldUserId })
  return tracker
}
