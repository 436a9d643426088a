/**
 * Everything the server tells Prometheus (issue 30, docs/decisions/0710), built once in
 * server/index.ts and passed down: counters the code moves as things happen, gauges read from the
 * running parts at scrape time (`watch`), the hot-path request table (request-metrics.ts) and
 * prom-client's process and event-loop metrics. Nothing here is module-level state.
 */
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client'
import type { PublicationKind } from '../control-center/services/publisher'
import type { MarketplaceOutcome } from '../upstream/marketplace-client'
import { RequestMetrics } from './request-metrics'

/** Why an event request was not stored. */
export type EventRejection = 'invalid' | 'unavailable' | 'failed'
/** Why a staff sign-in try was turned away before its password was checked. */
export type SignInThrottling = 'backoff' | 'in-progress' | 'locked' | 'hash-budget'
/** What a phone-number request ended with. */
export type PhoneLeaseResult = 'leased' | 'unusable' | 'failed'
type BreakerState = 'closed' | 'open' | 'half-open'

/** The running parts read at scrape time; each is filled in where the part is made. */
export interface MetricSources {
  /** The HTML cache behind the middleware chain. */
  pageCache?: { readonly hits: number; readonly misses: number; readonly size: number }
  /** The cache-hit fast path in front of it (docs/decisions/0530). */
  fastPath?: { readonly hits: number }
  /** Event rows waiting for their transaction (server/store/event-writer.ts). */
  eventQueue?: { readonly depth: number }
  marketplaceBreaker?: { readonly state: BreakerState }
  /** The live content: what is served, whether a refused commit left it degraded, the last reconcile. */
  content?: {
    source: 'git' | 'worktree'
    commit(): string | null
    degraded(): boolean
    /** Date.now() of the last successful reconcile, or of the start before the first. */
    reconciledAt(): number | null
  }
}

const PUBLICATION_KINDS = [
  'publish',
  'rollback',
  'scheduled',
  'import',
  'emergency',
  'push',
  'outside',
] as const satisfies readonly PublicationKind[]
const MARKETPLACE_OUTCOMES = [
  'ok',
  'upstream-error',
  'refused',
  'not-json',
  'timeout',
  'unreachable',
  'circuit-open',
] as const satisfies readonly MarketplaceOutcome[]
const MARKETPLACE_ENDPOINTS = ['demand-check', 'get-phone'] as const
const BREAKER_STATES = ['closed', 'half-open', 'open'] as const satisfies readonly BreakerState[]

type Child = { inc(value?: number): void }
/**
 * A labelled counter's children, made once for every value of its one label and reported from 0
 * (an alert on a rate needs the series before its first increment).
 */
function children<L extends string>(counter: Counter<string>, values: readonly L[]): Record<L, Child> {
  return Object.fromEntries(values.map((v) => [v, zeroed(counter.labels(v))])) as Record<L, Child>
}
function zeroed(child: Child): Child {
  child.inc(0)
  return child
}

export class Metrics {
  readonly registry = new Registry()
  /** HTTP requests by route kind and status class (recorded per request; see request-metrics.ts). */
  readonly requests = new RequestMetrics()
  readonly #sources: MetricSources = {}

  readonly eventsAccepted: Child
  readonly eventsRejected: Record<EventRejection, Child>
  readonly marketplace: Record<(typeof MARKETPLACE_ENDPOINTS)[number], Record<MarketplaceOutcome, Child>>
  readonly marketplaceTimeouts: Child
  readonly phoneLeases: Record<PhoneLeaseResult, Child>
  readonly publications: Record<PublicationKind, Child>
  readonly signInThrottled: Record<SignInThrottling, Child>
  readonly signInFailures: Child
  readonly signInLockouts: Child

  constructor() {
    const registers = [this.registry]
    const sources = this.#sources
    collectDefaultMetrics({ register: this.registry })

    new Counter({
      name: 'funnelworks_html_cache_hits_total',
      help: 'Pages answered from the HTML cache, by layer: before the middleware chain (fast-path) or inside it (middleware).',
      labelNames: ['layer'],
      registers,
      collect() {
        this.reset()
        if (sources.fastPath) this.labels('fast-path').inc(sources.fastPath.hits)
        if (sources.pageCache) this.labels('middleware').inc(sources.pageCache.hits)
      },
    })
    new Counter({
      name: 'funnelworks_html_cache_misses_total',
      help: 'Cacheable pages that had to be rendered (not in the HTML cache).',
      registers,
      collect() {
        this.reset()
        if (sources.pageCache) this.inc(sources.pageCache.misses)
      },
    })
    new Gauge({
      name: 'funnelworks_html_cache_entries',
      help: 'Rendered pages kept in the HTML cache.',
      registers,
      collect() {
        this.set(sources.pageCache?.size ?? 0)
      },
    })

    this.eventsAccepted = new Counter({
      name: 'funnelworks_events_accepted_total',
      help: 'Analytics events stored through POST /api/event/create (the ingest rate is its rate()).',
      registers,
    })
    this.eventsRejected = children(
      new Counter({
        name: 'funnelworks_event_requests_rejected_total',
        help: 'Event requests not stored, by reason: invalid (4xx, bad input), unavailable (no data store), failed (the write failed).',
        labelNames: ['reason'],
        registers,
      }),
      ['invalid', 'unavailable', 'failed'],
    )
    new Gauge({
      name: 'funnelworks_event_queue_depth',
      help: 'Event rows received and waiting for their transaction to commit.',
      registers,
      collect() {
        this.set(sources.eventQueue?.depth ?? 0)
      },
    })

    const marketplace = new Counter({
      name: 'funnelworks_marketplace_requests_total',
      help: 'Calls to the ad marketplace by endpoint and outcome (ok, upstream-error, refused, not-json, timeout, unreachable, circuit-open).',
      labelNames: ['endpoint', 'outcome'],
      registers,
    })
    this.marketplace = {
      'demand-check': outcomes('demand-check'),
      'get-phone': outcomes('get-phone'),
    }
    function outcomes(endpoint: string) {
      return Object.fromEntries(
        MARKETPLACE_OUTCOMES.map((o) => [o, zeroed(marketplace.labels(endpoint, o))]),
      ) as Record<MarketplaceOutcome, Child>
    }
    this.marketplaceTimeouts = new Counter({
      name: 'funnelworks_marketplace_timeouts_total',
      help: 'Calls to the ad marketplace that got no answer within MEDIAALPHA_TIMEOUT_MS.',
      registers,
    })
    new Gauge({
      name: 'funnelworks_marketplace_breaker_state',
      help: 'The ad marketplace circuit breaker: 1 for its current state (closed, half-open, open), 0 for the others.',
      labelNames: ['state'],
      registers,
      collect() {
        const now = sources.marketplaceBreaker?.state
        this.reset()
        if (now) for (const s of BREAKER_STATES) this.labels(s).set(s === now ? 1 : 0)
      },
    })
    this.phoneLeases = children(
      new Counter({
        name: 'funnelworks_phone_leases_total',
        help: 'Phone-number requests (get-phone) by result: leased, unusable (the marketplace gave no usable number), failed.',
        labelNames: ['result'],
        registers,
      }),
      ['leased', 'unusable', 'failed'],
    )

    this.publications = children(
      new Counter({
        name: 'funnelworks_publications_total',
        help: 'Content publications made by this instance, by kind (publish, rollback, scheduled, import, emergency; push and outside: moves of live no publication made, recorded by this instance).',
        labelNames: ['kind'],
        registers,
      }),
      PUBLICATION_KINDS,
    )
    new Gauge({
      name: 'funnelworks_content_reconcile_lag_seconds',
      help: 'Seconds since this instance last reconciled its live content with the latest publication (every 30 s when healthy).',
      registers,
      collect() {
        const at = sources.content?.reconciledAt()
        this.reset()
        if (at != null) this.set((Date.now() - at) / 1000)
      },
    })
    new Gauge({
      name: 'funnelworks_content_info',
      help: 'The content being served: 1, labelled with the published commit (none before the first) and the content source.',
      labelNames: ['commit', 'source'],
      registers,
      collect() {
        this.reset()
        const content = sources.content
        if (content) this.labels(content.commit() ?? 'none', content.source).set(1)
      },
    })
    new Gauge({
      name: 'funnelworks_content_degraded',
      help: '1 while a refused commit is on published and the last good commit keeps serving (docs/decisions/0610), else 0.',
      registers,
      collect() {
        this.set(sources.content?.degraded() ? 1 : 0)
      },
    })

    this.signInThrottled = children(
      new Counter({
        name: 'funnelworks_sign_in_throttled_total',
        help: 'Staff sign-in tries turned away before a password check, by reason: backoff, in-progress, locked, hash-budget.',
        labelNames: ['reason'],
        registers,
      }),
      ['backoff', 'in-progress', 'locked', 'hash-budget'],
    )
    this.signInFailures = new Counter({
      name: 'funnelworks_sign_in_failures_total',
      help: 'Staff sign-ins refused for a wrong e-mail or password.',
      registers,
    })
    this.signInLockouts = new Counter({
      name: 'funnelworks_sign_in_lockouts_total',
      help: 'Staff accounts locked after too many failed sign-ins.',
      registers,
    })
  }

  /** Tells the metrics where to read the parts they report at scrape time. */
  watch(sources: MetricSources): void {
    Object.assign(this.#sources, sources)
  }

  /** The whole scrape, in the Prometheus text format. */
  async exposition(): Promise<string> {
    return `${await this.registry.metrics()}\n${this.requests.exposition()}`
  }

  get contentType(): string {
    return this.registry.contentType
  }
}
