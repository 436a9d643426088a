import { afterEach, describe, expect, it, vi } from 'vitest'
import { sendEvents } from './browser-transport'
import type { QueuedItem } from './event-queue'

const event = { type: 'track', event: 'x' } as unknown as QueuedItem
const consent = { type: 'consent', id: 'c1' } as unknown as QueuedItem

/** A network standing in for the server: answers each endpoint with the status given. */
function network(status: Record<string, number>) {
  const calls: { url: string; body: unknown[] }[] = []
  vi.stubGlobal('fetch', async (url: string, init: { body: string }) => {
    calls.push({ url, body: JSON.parse(init.body) })
    return new Response('{}', { status: status[url] ?? 200 })
  })
  return calls
}

describe('the one queue’s transport', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('posts events and consent records of one batch to their own endpoints', async () => {
    const calls = network({})
    expect(await sendEvents([event, consent, event])).toBe('ok')
    expect(calls).toEqual([
      { url: '/api/event/create', body: [event, event] },
      { url: '/api/consent/create', body: [consent] },
    ])
  })

  it('retries the batch when either part failed, drops it when refused', async () => {
    network({ '/api/consent/create': 503 })
    expect(await sendEvents([event, consent])).toBe('failed')
    network({ '/api/consent/create': 422 })
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(await sendEvents([event, consent])).toBe('refused')
    network({ '/api/event/create': 500, '/api/consent/create': 422 })
    expect(await sendEvents([event, consent])).toBe('failed')
  })
})
