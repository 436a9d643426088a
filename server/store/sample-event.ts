import { randomUUID } from 'node:crypto'

/** A valid pageview body for tests and benches (POST /api/event/create). */
export function sampleEvent(eventId: string = randomUUID(), extra: Record<string, unknown> = {}) {
  return {
    type: 'page' as const,
    timestamp: new Date().toISOString(),
    sessionId: 'sess-0001',
    anonymousId: 'anon-0001',
    name: 'home-m10',
    category: 'home',
    properties: {
      eventId,
      userId: 'user-0001',
      session: { id: 'sess-0001', paid: false, urlParams: {} },
      url: { full: 'http://m10.localhost/', path: '/', query: '' },
      ...extra,
    },
  }
}
