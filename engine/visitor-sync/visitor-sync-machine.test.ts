import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import type { VisitorRecord } from '../../schemas/generated/visitor-record'
import { VISITOR_SYNC_RETRY_MS } from '../constants'
import { visitorSyncMachine } from './visitor-sync-machine'

const record = (sessionId: string, updatedAt: number): VisitorRecord => ({
  userId: 'user-0001',
  anonymousId: 'anon-0001',
  session: { id: sessionId, paid: false, urlParams: {} },
  urlParams: {},
  updatedAt,
})

/** A server stand-in whose answers the test decides: each POST waits for ok() or fail(). */
function fakeServer() {
  const posts: { record: VisitorRecord; ok(): void; fail(): void }[] = []
  const actor = fromPromise<unknown, { record: VisitorRecord }>(
    ({ input }) =>
      new Promise((resolve, reject) => {
        posts.push({ record: input.record, ok: () => resolve(null), fail: () => reject(new Error('503')) })
      }),
  )
  return { posts, actor }
}

function start() {
  const server = fakeServer()
  const broadcasts: VisitorRecord[] = []
  const changes: { record: VisitorRecord; source: string }[] = []
  const actor = createActor(
    visitorSyncMachine.provide({
      actors: { postRecord: server.actor },
      actions: {
        broadcast: (_, { record }) => broadcasts.push(record),
        recordChanged: (_, p) => changes.push(p),
      },
    }),
    { input: { record: null } },
  )
  actor.start()
  return { actor, server, broadcasts, changes }
}

const flush = () => vi.advanceTimersByTimeAsync(0)

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('visitor sync machine (spec points 4 and 7)', () => {
  it('the spec constants: 3000 ms retry', () => {
    expect(VISITOR_SYNC_RETRY_MS).toBe(3000)
  })

  it('posts a change and broadcasts it', async () => {
    const { actor, server, broadcasts } = start()
    actor.send({ type: 'CHANGE', record: record('s1', 1) })
    expect(broadcasts.map((r) => r.session.id)).toEqual(['s1'])
    expect(server.posts.map((p) => p.record.session.id)).toEqual(['s1'])
    server.posts[0].ok()
    await flush()
    expect(actor.getSnapshot().value).toBe('idle')
  })

  it('after a failure, retries after 3 s — not before', async () => {
    const { actor, server } = start()
    actor.send({ type: 'CHANGE', record: record('s1', 1) })
    server.posts[0].fail()
    await flush()
    expect(actor.getSnapshot().value).toBe('waiting')
    await vi.advanceTimersByTimeAsync(VISITOR_SYNC_RETRY_MS - 1)
    expect(server.posts).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(server.posts).toHaveLength(2)
    expect(server.posts[1].record.session.id).toBe('s1')
    server.posts[1].ok()
    await flush()
    expect(actor.getSnapshot().value).toBe('idle')
  })

  it('a newer change during the wait is sent instead, and the old record never again', async () => {
    const { actor, server } = start()
    actor.send({ type: 'CHANGE', record: record('s1', 1) })
    server.posts[0].fail()
    await flush()
    await vi.advanceTimersByTimeAsync(1000)
    actor.send({ type: 'CHANGE', record: record('s2', 2) })
    expect(server.posts.map((p) => p.record.session.id)).toEqual(['s1', 's2'])
    server.posts[1].ok()
    await vi.advanceTimersByTimeAsync(VISITOR_SYNC_RETRY_MS * 3)
    expect(server.posts).toHaveLength(2)
    expect(actor.getSnapshot().value).toBe('idle')
  })

  it('a change while a POST is in flight is sent right after it', async () => {
    const { actor, server } = start()
    actor.send({ type: 'CHANGE', record: record('s1', 1) })
    actor.send({ type: 'CHANGE', record: record('s2', 2) })
    expect(server.posts).toHaveLength(1)
    server.posts[0].ok()
    await flush()
    expect(server.posts.map((p) => p.record.session.id)).toEqual(['s1', 's2'])
    server.posts[1].ok()
    await flush()
    expect(actor.getSnapshot().value).toBe('idle')
    expect(actor.getSnapshot().context.sentVersion).toBe(2)
  })

  it("adopts another tab's newer record without posting or re-broadcasting it", async () => {
    const { actor, server, broadcasts, changes } = start()
    actor.send({ type: 'CHANGE', record: record('s1', 10) })
    server.posts[0].ok()
    await flush()
    actor.send({ type: 'REMOTE', record: record('s9', 20) })
    expect(actor.getSnapshot().context.record?.session.id).toBe('s9')
    expect(changes.at(-1)).toMatchObject({ source: 'remote' })
    expect(server.posts).toHaveLength(1)
    expect(broadcasts).toHaveLength(1)
    // An older one is ignored.
    actor.send({ type: 'REMOTE', record: record('s0', 5) })
    expect(actor.getSnapshot().context.record?.session.id).toBe('s9')
  })

  it("a newer remote record cancels this tab's pending retry", async () => {
    const { actor, server } = start()
    actor.send({ type: 'CHANGE', record: record('s1', 1) })
    server.posts[0].fail()
    await flush()
    actor.send({ type: 'REMOTE', record: record('s2', 2) })
    await vi.advanceTimersByTimeAsync(VISITOR_SYNC_RETRY_MS * 2)
    expect(server.posts).toHaveLength(1)
    expect(actor.getSnapshot().value).toBe('idle')
  })
})
