import { log } from '../log'
import { CircuitBreaker } from './circuit-breaker'
import { postJson } from './post-json'

export type MarketplacePath = '/demand-check' | '/get-phone'

export type MarketplaceResult =
  | { ok: true; status: number; text: string; json: unknown }
  | { ok: false; status: 502 | 503 | 504; error: string }

/** How one call ended (what /metrics counts). */
export type MarketplaceOutcome =
  | 'ok'
  | 'upstream-error'
  | 'refused'
  | 'not-json'
  | 'timeout'
  | 'unreachable'
  | 'circuit-open'

export interface MarketplaceClientOptions {
  baseUrl: string
  apiKey: string | null
  timeoutMs: number
  breakerFailures: number
  breakerOpenMs: number
  /** Told how every call ended. */
  record?: (path: MarketplacePath, outcome: MarketplaceOutcome) => void
}

/**
 * Talks to the ad marketplace: POST JSON with the credentials, a hard timeout and one circuit
 * breaker for the whole upstream. Never throws: every failure becomes a 5xx result for the proxy.
 */
export class MarketplaceClient {
  readonly breaker: CircuitBreaker
  constructor(private readonly opts: MarketplaceClientOptions) {
    this.breaker = new CircuitBreaker(opts.breakerFailures, opts.breakerOpenMs)
  }

  async post(path: MarketplacePath, body: unknown): Promise<MarketplaceResult> {
    const result = await this.#post(path, body)
    this.opts.record?.(path, result.outcome)
    return result.result
  }

  async #post(
    path: MarketplacePath,
    body: unknown,
  ): Promise<{ outcome: MarketplaceOutcome; result: MarketplaceResult }> {
    const ended = (outcome: MarketplaceOutcome, result: MarketplaceResult) => ({ outcome, result })
    if (!this.breaker.tryAcquire())
      return ended('circuit-open', {
        ok: false,
        status: 503,
        error: 'The ad marketplace is unavailable right now (circuit open)',
      })
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`
    try {
      const res = await postJson(
        `${this.opts.baseUrl}${path}`,
        JSON.stringify(body),
        headers,
        this.opts.timeoutMs,
      )
      const text = res.text
      if (res.status >= 500) {
        this.breaker.failure()
        return ended('upstream-error', {
          ok: false,
          status: 502,
          error: `The ad marketplace answered ${res.status}`,
        })
      }
      if (res.status < 200 || res.status >= 300) {
        this.breaker.neutral()
        log('warn', 'marketplace refused a request', { path, status: res.status, body: text.slice(0, 300) })
        return ended('refused', {
          ok: false,
          status: 502,
          error: `The ad marketplace refused the request (${res.status})`,
        })
      }
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        // A 200 with garbage is as broken as a 500: it counts towards opening the breaker.
        this.breaker.failure()
        log('warn', 'marketplace answered non-JSON', { path, status: res.status, body: text.slice(0, 300) })
        return ended('not-json', {
          ok: false,
          status: 502,
          error: 'The ad marketplace answered with something that is not JSON',
        })
      }
      this.breaker.success()
      return ended('ok', { ok: true, status: res.status, text, json })
    } catch (e) {
      this.breaker.failure()
      const name = (e as Error).name
      if (name === 'TimeoutError' || name === 'AbortError')
        return ended('timeout', {
          ok: false,
          status: 504,
          error: `The ad marketplace did not answer within ${this.opts.timeoutMs} ms`,
        })
      return ended('unreachable', {
        ok: false,
        status: 502,
        error: 'The ad marketplace could not be reached',
      })
    }
  }
}
