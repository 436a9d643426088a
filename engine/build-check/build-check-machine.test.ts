import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { BUILD_CHECK_INTERVAL_MS, RELOAD_GUARD_MS } from '../constants'
import { buildCheckMachine, reloadAllowed } from './build-check-machine'

function start(opts: { latest: () => string | Promise<string>; lastReloadAt?: number | null }) {
  const reloads: string[] = []
  let checks = 0
  const machine = buildCheckMachine.provide({
    actors: {
      fetchLatest: fromPromise(async () => {
        checks++
        return { id: await opts.latest() }
      }),
    },
    actions: { reload: (_, params) => reloads.push(params.url) },
  })
  const actor = createActor(machine, {
    input: { buildId: 'b1', lastReloadAt: opts.lastReloadAt ?? null },
  }).start()
  return { actor, reloads, checks: () => checks }
}

beforeEach(() => vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00Z') }))
afterEach(() => vi.useRealTimers())

describe('build check machine', () => {
  it('polls latest.json on the interval and stays idle while the build is current', async () => {
    const { actor, checks } = start({ latest: () => 'b1' })
    expect(checks()).toBe(0)
    await vi.advanceTimersByTimeAsync(BUILD_CHECK_INTERVAL_MS)
    expect(checks()).toBe(1)
    expect(actor.getSnapshot().value).toBe('idle')
    await vi.advanceTimersByTimeAsync(BUILD_CHECK_INTERVAL_MS)
    expect(checks()).toBe(2)
  })

  it('checks at once when asked (tab focus)', async () => {
    const { actor, checks } = start({ latest: () => 'b2' })
    actor.send({ type: 'CHECK' })
    await vi.advanceTimersByTimeAsync(0)
    expect(checks()).toBe(1)
    expect(actor.getSnapshot().value).toBe('newBuild')
    expect(actor.getSnapshot().context.latestId).toBe('b2')
  })

  it('a failed check waits for the next one', async () => {
    const { actor } = start({ latest: () => Promise.reject(new Error('offline')) })
    actor.send({ type: 'CHECK' })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('idle')
  })

  it('a new build without a chunk failure does not reload', async () => {
    const { actor, reloads } = start({ latest: () => 'b2' })
    actor.send({ type: 'CHECK' })
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'NAVIGATE', url: '/quiz/otc/2' })
    expect(reloads).toEqual([])
  })

  it('a chunk failure triggers a check; the next navigation after a new build reloads to its URL', async () => {
    const { actor, reloads, checks } = start({ latest: () => 'b2' })
    actor.send({ type: 'CHUNK_FAILED' })
    await vi.advanceTimersByTimeAsync(0)
    expect(checks()).toBe(1)
    expect(reloads).toEqual([])
    actor.send({ type: 'NAVIGATE', url: '/quiz/otc/2?x=1' })
    expect(reloads).toEqual(['/quiz/otc/2?x=1'])
    expect(actor.getSnapshot().status).toBe('done')
  })

  it('a chunk failure on the current build does not reload', async () => {
    const { actor, reloads } = start({ latest: () => 'b1' })
    actor.send({ type: 'CHUNK_FAILED' })
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'NAVIGATE', url: '/next' })
    expect(reloads).toEqual([])
  })

  it('the reload guard blocks a second reload within RELOAD_GUARD_MS', async () => {
    const { actor, reloads } = start({ latest: () => 'b2', lastReloadAt: Date.now() - (RELOAD_GUARD_MS - 1) })
    actor.send({ type: 'CHUNK_FAILED' })
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'NAVIGATE', url: '/a' })
    expect(reloads).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    actor.send({ type: 'NAVIGATE', url: '/b' })
    expect(reloads).toEqual(['/b'])
    expect(actor.getSnapshot().context.lastReloadAt).toBe(Date.now())
  })
})

describe('reloadAllowed', () => {
  it('allows a first reload, blocks within the guard, allows after it', () => {
    expect(reloadAllowed(null, 1_000)).toBe(true)
    expect(reloadAllowed(1_000, 1_000 + RELOAD_GUARD_MS - 1)).toBe(false)
    expect(reloadAllowed(1_000, 1_000 + RELOAD_GUARD_MS)).toBe(true)
  })
  it('a stored time in the future (clock change) does not block forever', () => {
    expect(reloadAllowed(10_000_000, 1_000)).toBe(true)
  })
})
