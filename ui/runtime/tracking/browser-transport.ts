import type { AnalyticsEvent } from '../../../schemas/generated/analytics-event'
import type { ConsentRecordBody } from '../../../schemas/generated/api-consent-record'
import { beaconJson } from '../beacon'
import type { QueuedItem, SendOutcome } from './event-queue'

const EVENT_ENDPOINT = '/api/event/create'
const CONSENT_ENDPOINT = '/api/consent/create'

const isConsent = (item: QueuedItem): item is ConsentRecordBody => item.type === 'consent'

/** A batch split by endpoint: events and consent records go to their own, in one round. */
function parts(batch: QueuedItem[]): [string, QueuedItem[]][] {
  const consent = batch.filter(isConsent)
  const events = batch.filter((i): i is AnalyticsEvent => !isConsent(i))
  return (
    [
      [EVENT_ENDPOINT, events],
      [CONSENT_ENDPOINT, consent],
    ] as [string, QueuedItem[]][]
  ).filter(([, items]) => items.length > 0)
}

/** POST with fetch: 2xx delivered, 4xx refused (except 408/429, which are worth retrying), else failed. */
async function post(url: string, items: QueuedItem[]): Promise<SendOutcome> {
  try {
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(items),
      credentials: 'same-origin',
    })
    if (r.ok) {
      await r.body?.cancel()
      return 'ok'
    }
    if (r.status >= 400 && r.status < 500 && r.status !== 408 && r.status !== 429) {
      console.warn(`${url} refused:`, r.status, await r.text().catch(() => ''))
      return 'refused'
    }
    await r.body?.cancel()
    return 'failed'
  } catch {
    return 'failed'
  }
}

/**
 * Sends a batch of the one queue. When one part fails the whole batch is retried: both endpoints
 * store an id once, so the part already delivered is acknowledged again, never stored twice.
 */
export async function sendEvents(batch: QueuedItem[]): Promise<SendOutcome> {
  const outcomes = await Promise.all(parts(batch).map(([url, items]) => post(url, items)))
  if (outcomes.includes('failed')) return 'failed'
  return outcomes.includes('refused') ? 'refused' : 'ok'
}

/** On page hide: sendBeacon when the browser takes it, else fetch with keepalive. */
export function beaconEvents(batch: QueuedItem[]): void {
  for (const [url, items] of parts(batch)) beaconJson(url, JSON.stringify(items))
}
