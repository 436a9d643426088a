import { BroadcastChannel } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { VISITOR_SYNC_CHANNEL } from '../../../engine/constants'
import type { VisitorRecord } from '../../../schemas/generated/visitor-record'
import { type SyncChannel, startVisitorSync, type VisitorSync } from './visitor-sync'

const record = (sessionId: string, updatedAt: number): VisitorRecord => ({
  userId: 'user-0001',
  anonymousId: 'anon-0001',
  session: { id: sessionId, paid: true, urlParams: { utm_campaign: 'c' } },
  urlParams: {},
  updatedAt,
})

const running: VisitorSync[] = []
afterEach(() => {
  for (const s of running.splice(0)) s.stop()
})

function tab(name: string, posted: string[]) {
  const seen: { record: VisitorRecord; source: string }[] = []
  const sync = startVisitorSync({
    record: null,
    post: async (r) => {
      posted.push(`${name}:${r.session.id}`)
    },
    onRecord: (r, source) => seen.push({ record: r, source }),
    channel: new BroadcastChannel(VISITOR_SYNC_CHANNEL) as unknown as SyncChannel,
  })
  running.push(sync)
  return { sync, seen }
}

describe('visitor sync over the user-sync BroadcastChannel', () => {
  it('a change in one tab reaches the second tab, which adopts it without posting again', async () => {
    const posted: string[] = []
    const a = tab('a', posted)
    const b = tab('b', posted)
    a.sync.change(record('s1', 1))
    await expect.poll(() => b.sync.current()?.session.id).toBe('s1')
    expect(b.seen).toEqual([{ record: record('s1', 1), source: 'remote' }])
    expect(posted).toEqual(['a:s1'])
    // And back: the second tab's newer change converges the first.
    b.sync.change(record('s2', 2))
    await expect.poll(() => a.sync.current()?.session.id).toBe('s2')
    expect(posted).toEqual(['a:s1', 'b:s2'])
  })
})
