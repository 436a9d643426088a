import {
  EVENT_BATCH_MAX,
  EVENT_QUEUE_MAX,
  EVENT_RETRY_BASE_MS,
  EVENT_RETRY_MAX_MS,
} from '../../../engine/constants'
import type { AnalyticsEvent } from '../../../schemas/generated/analytics-event'
import type { ConsentRecordBody } from '../../../schemas/generated/api-consent-record'

/** What the one queue carries: analytics events, and consent records (docs/decisions/0800). */
export type QueuedItem = AnalyticsEvent | ConsentRecordBody

/** How a batch reached the server: delivered, refused as invalid (never retried), or not (retry later). */
export type SendOutcome = 'ok' | 'refused' | 'failed'

export interface QueueEnv {
  /** POSTs a batch; resolves with the outcome, never rejects. */
  send(batch: QueuedItem[]): Promise<SendOutcome>
  /** Fire-and-forget delivery while the page goes away (sendBeacon, else fetch keepalive). */
  beacon(batch: QueuedItem[]): void
  /** The browser's hint (navigator.onLine); false is not proof, see flush(). */
  isOnline(): boolean
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  /** Persists the queue so a reload in this tab does not lose unsent events. */
  save(events: QueuedItem[]): void
  random(): number
}

/**
 * The browser's event queue (events and consent records): each waits here until the server acknowledges them. A failed send
 * (offline, network error, 5xx) is retried with exponential backoff (EVENT_RETRY_BASE_MS doubling to
 * EVENT_RETRY_MAX_MS, with jitter); coming back online retries at once. On page hide everything left
 * goes by beacon but stays saved: if the beacon was lost, the next page load sends it again, and the
 * server stores an event id once.
 *
 * "Offline" (navigator.onLine false) is only a hint: a browser with no network interface still reaches
 * a server on this machine (a laptop with Wi-Fi off running the site locally). So the queue always
 * tries; only when a send fails while the browser says offline does it wait for the `online` event,
 * retrying at the longest backoff meanwhile.
 */
export class EventQueue {
  private events: QueuedItem[]
  private sending = false
  private failures = 0
  private timer: unknown = null
  /** Events enqueued while held: they wait for release(), which may complete them. */
  private held: Set<QueuedItem> | null = null

  constructor(
    private readonly env: QueueEnv,
    saved: QueuedItem[] = [],
  ) {
    this.events = saved.slice(-EVENT_QUEUE_MAX)
  }

  get size(): number {
    return this.events.length
  }

  /** Retry delay after `failures` consecutive failures (before jitter). */
  static backoff(failures: number): number {
    return Math.min(EVENT_RETRY_BASE_MS * 2 ** Math.max(failures - 1, 0), EVENT_RETRY_MAX_MS)
  }

  enqueue(event: QueuedItem): void {
    this.events.push(event)
    this.held?.add(event)
    if (this.events.length > EVENT_QUEUE_MAX) this.events.splice(0, this.events.length - EVENT_QUEUE_MAX)
    this.env.save(this.events)
    if (this.timer === null) void this.flush()
  }

  /** Holds new events back (they are kept and saved, not sent) until release(). */
  hold(): void {
    this.held ??= new Set()
  }

  /** Lets held events go, each completed first (the page adds what it learnt meanwhile). */
  release(complete: (event: QueuedItem) => QueuedItem = (e) => e): void {
    const held = this.held
    this.held = null
    if (held?.size) {
      this.events = this.events.map((e) => (held.has(e) ? complete(e) : e))
      this.env.save(this.events)
    }
    void this.flush()
  }

  /** Sends what is queued, batch by batch, until empty or a send fails. */
  async flush(): Promise<void> {
    if (this.sending || this.events.length === 0) return
    this.sending = true
    try {
      for (;;) {
        const held = this.held
        const batch = (held ? this.events.filter((e) => !held.has(e)) : this.events).slice(0, EVENT_BATCH_MAX)
        if (!batch.length) break
        const outcome = await this.env.send(batch)
        if (outcome === 'failed') {
          this.failures++
          this.schedule(this.env.isOnline() ? EventQueue.backoff(this.failures) : EVENT_RETRY_MAX_MS)
          return
        }
        // Delivered, or refused as invalid (retrying an invalid body cannot help).
        const sent = new Set(batch)
        this.events = this.events.filter((e) => !sent.has(e))
        this.env.save(this.events)
        this.failures = 0
      }
    } finally {
      this.sending = false
    }
  }

  /** The browser says the network is back: retry now rather than at the next backoff. */
  online(): void {
    this.cancelTimer()
    void this.flush()
  }

  /** The page is being hidden or unloaded: hand everything to the beacon. */
  pageHidden(): void {
    for (let i = 0; i < this.events.length; i += EVENT_BATCH_MAX) {
      this.env.beacon(this.events.slice(i, i + EVENT_BATCH_MAX))
    }
  }

  private schedule(ms: number): void {
    this.cancelTimer()
    const jittered = Math.round(ms * (0.8 + 0.4 * this.env.random()))
    this.timer = this.env.setTimeout(() => {
      this.timer = null
      void this.flush()
    }, jittered)
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.env.clearTimeout(this.timer)
    this.timer = null
  }
}
