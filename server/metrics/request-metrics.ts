/**
 * HTTP request counts and latencies by route kind and status class, recorded on the hot path into
 * preallocated arrays and written out in the Prometheus text format at scrape time (docs/decisions/0710).
 * prom-client's labelled children hash their labels on every call (~1–1.5 µs each, measured): at the
 * cached page's ~21,000 req/s that would be several percent of a core; an index into a Float64Array is not.
 */

/** What a request was for; the page middleware, the control center and the API each say which. */
export const ROUTE_KINDS = [
  'page',
  'funnel',
  'api',
  'control-center',
  'ops',
  'asset',
  'health',
  'other',
] as const
export type RouteKind = (typeof ROUTE_KINDS)[number]

const KIND_INDEX = Object.fromEntries(ROUTE_KINDS.map((k, i) => [k, i])) as Record<RouteKind, number>
const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const
/** Upper bounds of the latency buckets, in seconds: a cached page takes well under a millisecond. */
export const LATENCY_BUCKETS_S = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
] as const

/**
 * 501 answers a method nobody implements (PROPFIND, MKCOL…): the request is at fault, not the server,
 * so it is counted with the 4xx and never sets off an error-rate alert (issue 36).
 */
const NOT_IMPLEMENTED = 501

const REQUESTS = 'funnelworks_http_requests_total'
const DURATION = 'funnelworks_http_request_duration_seconds'
const SERIES = ROUTE_KINDS.length * STATUS_CLASSES.length
/** Per series: one count per bucket and the +Inf bucket. */
const SLOTS = LATENCY_BUCKETS_S.length + 1

export class RequestMetrics {
  readonly #counts = new Float64Array(SERIES)
  readonly #sums = new Float64Array(SERIES)
  readonly #buckets = new Float64Array(SERIES * SLOTS)

  /** One answered request: its kind, status and the performance.now() it started at. */
  record(kind: RouteKind, status: number, startedMs: number): void {
    const seconds = (performance.now() - startedMs) / 1000
    const cls =
      status < 200 ? 0 : status === NOT_IMPLEMENTED ? 3 : status >= 500 ? 4 : ((status / 100) | 0) - 1
    const series = KIND_INDEX[kind] * STATUS_CLASSES.length + cls
    this.#counts[series]++
    this.#sums[series] += seconds
    let b = 0
    while (b < LATENCY_BUCKETS_S.length && seconds > LATENCY_BUCKETS_S[b]!) b++
    this.#buckets[series * SLOTS + b]++
  }

  /** Requests recorded so far of one kind and status class (tests, the bench). */
  count(kind: RouteKind, statusClass: (typeof STATUS_CLASSES)[number]): number {
    return this.#counts[KIND_INDEX[kind] * STATUS_CLASSES.length + STATUS_CLASSES.indexOf(statusClass)]!
  }

  /** Both families in the Prometheus text format (every series, zero or not, so alerts see them). */
  exposition(): string {
    const requests = [
      `# HELP ${REQUESTS} HTTP requests answered, by route kind and status class (cached pages answered before the middleware chain included).`,
      `# TYPE ${REQUESTS} counter`,
    ]
    const duration = [
      `# HELP ${DURATION} Time from receiving an HTTP request to handing its answer to the socket, by route kind and status class.`,
      `# TYPE ${DURATION} histogram`,
    ]
    ROUTE_KINDS.forEach((kind, k) => {
      STATUS_CLASSES.forEach((cls, c) => {
        // 1xx answers are not made here: no series for them.
        if (c === 0) return
        const series = k * STATUS_CLASSES.length + c
        const labels = `kind="${kind}",status_class="${cls}"`
        requests.push(`${REQUESTS}{${labels}} ${this.#counts[series]}`)
        let cumulative = 0
        LATENCY_BUCKETS_S.forEach((le, b) => {
          cumulative += this.#buckets[series * SLOTS + b]!
          duration.push(`${DURATION}_bucket{${labels},le="${le}"} ${cumulative}`)
        })
        duration.push(`${DURATION}_bucket{${labels},le="+Inf"} ${this.#counts[series]}`)
        duration.push(`${DURATION}_sum{${labels}} ${this.#sums[series]}`)
        duration.push(`${DURATION}_count{${labels}} ${this.#counts[series]}`)
      })
    })
    return `${requests.join('\n')}\n\n${duration.join('\n')}\n`
  }
}
