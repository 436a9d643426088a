import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { EVENT_BATCH_MAX, EVENT_RETRY_BASE_MS, EVENT_RETRY_MAX_MS } from '../../../engine/constants'
import type { AnalyticsEvent } from '../../../schemas/generated/analytics-event'
import { EventQueue, type QueuedItem, type QueueEnv, type SendOutcome } from './event-queue'

const event = (n: number) => ({ type: 'track', event: `e${n}` }) as unknown as AnalyticsEvent

function env(outcomes: SendOutcome[]) {
  const sent: string[][] = []
  const beacons: string[][] = []
  let online = true
  let saved: QueuedItem[] = []
  const e: QueueEnv = {
    send: async (batch) => {
      sent.push(batch.map((x) => (x as unknown as { event: string }).event))
      return outcomes.shift() ?? 'ok'
    },
    beacon: (batch) => beacons.push(batch.map((x) => (x as unknown as { event: string }).event)),
    isOnline: () => online,
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    save: (events) => {
      saved = [...events]
    },
    random: () => 0.5,
  }
  return { e, sent, beacons, setOnline: (v: boolean) => (online = v), saved: () => saved }
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('browser event queue', () => {
  it('backs off exponentially up to the maximum', () => {
    expect([1, 2, 3, 4].map(EventQueue.backoff)).toEqual([
      EVENT_RETRY_BASE_MS,
      EVENT_RETRY_BASE_MS * 2,
      EVENT_RETRY_BASE_MS * 4,
      EVENT_RETRY_BASE_MS * 8,
    ])
    expect(EventQueue.backoff(50)).toBe(EVENT_RETRY_MAX_MS)
  })

  it('keeps events while the server fails and retries with backoff until acknowledged', async () => {
    const t = env(['failed', 'failed', 'ok'])
    const q = new EventQueue(t.e)
    q.enqueue(event(1))
    await vi.advanceTimersByTimeAsync(0)
    expect(t.sent).toEqual([['e1']])
    expect(q.size).toBe(1)
    await vi.advanceTimersByTimeAsync(EventQueue.backoff(1))
    expect(t.sent).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(EventQueue.backoff(2))
    expect(t.sent).toHaveLength(3)
    expect(q.size).toBe(0)
    expect(t.saved()).toEqual([])
  })

  it('tries even while the browser says offline: the server may be on this machine', async () => {
    const t = env([])
    t.setOnline(false)
    const q = new EventQueue(t.e)
    q.enqueue(event(1))
    await vi.advanceTimersByTimeAsync(0)
    expect(t.sent).toEqual([['e1']])
    expect(q.size).toBe(0)
  })

  it('after a failure while offline, waits for the browser to be back online', async () => {
    const t = env(['failed'])
    t.setOnline(false)
    const q = new EventQueue(t.e)
    q.enqueue(event(1))
    q.enqueue(event(2))
    await vi.advanceTimersByTimeAsync(EVENT_RETRY_BASE_MS * 8)
    // One attempt, then no fast retries while offline.
    expect(t.sent).toEqual([['e1']])
    expect(t.saved()).toHaveLength(2)
    t.setOnline(true)
    q.online()
    await vi.advanceTimersByTimeAsync(0)
    expect(t.sent).toEqual([['e1'], ['e1', 'e2']])
  })

  it('drops a batch the server refuses as invalid', async () => {
    const t = env(['refused'])
    const q = new EventQueue(t.e)
    q.enqueue(event(1))
    await vi.advanceTimersByTimeAsync(60_000)
    expect(q.size).toBe(0)
    expect(t.sent).toHaveLength(1)
  })

  it('sends saved events of an earlier page load, in batches', async () => {
    const t = env([])
    const q = new EventQueue(
      t.e,
      Array.from({ length: EVENT_BATCH_MAX + 5 }, (_, i) => event(i)),
    )
    await q.flush()
    expect(t.sent.map((b) => b.length)).toEqual([EVENT_BATCH_MAX, 5])
  })

  it('hands everything left to the beacon on page hide, and keeps it saved', async () => {
    const t = env([])
    t.setOnline(false)
    const q = new EventQueue(t.e)
    q.enqueue(event(1))
    q.pageHidden()
    expect(t.beacons).toEqual([['e1']])
    expect(t.saved()).toHaveLength(1)
  })
})
