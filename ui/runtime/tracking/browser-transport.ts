import type { AnalyticsEvent } from '../../../schemas/generated/analytics-event'
import { beaconJson } from '../beacon'
import type { SendOutcome } from './event-queue'

const EVENT_ENDPOINT = '/api/event/create'

/** POST with fetch: 2xx delivered, 4xx refused (except 408/429, which are worth retrying), else failed. */
export async function sendEvents(batch: AnalyticsEvent[]): Promise<SendOutcome> {
  try {
    const r = await fetch(EVENT_ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(batch),
      credentials: 'same-origin',
    })
    if (r.ok) return 'ok'
    if (r.status >= 400 && r.status < 500 && r.status !== 408 && r.status !== 429) {
      console.warn('Analytics events refused by the server:', r.status, await r.text().catch(() => ''))
      return 'refused'
    }
    return 'failed'
  } catch {
    return 'failed'
  }
}

/** On page hide: sendBeacon when the browser takes it, else fetch with keepalive. */
export function beaconEvents(batch: AnalyticsEvent[]): void {
  beaconJson(EVENT_ENDPOINT, JSON.stringify(batch))
}
