import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { leaseMachine } from './lease-machine'
import type { LeasedPhone } from './leased-phone'
import { displayedNumber } from './leased-phone'

const DEFAULT = '18885550100'

/** A lease actor whose requests answer from a script; records when each request was made. */
function start(answers: (() => LeasedPhone | null | Error)[]) {
  const requestedAt: number[] = []
  const machine = leaseMachine.provide({
    actors: {
      requestPhone: fromPromise(async () => {
        requestedAt.push(Date.now())
        const next = answers.shift() ?? (() => null)
        const answer = next()
        if (answer instanceof Error) throw answer
        return answer
      }),
    },
  })
  const actor = createActor(machine, { input: {} }).start()
  const shown = () => displayedNumber(actor.getSnapshot().context.leased, DEFAULT, Date.now())
  return { actor, requestedAt, shown }
}

const lease = (value: string, seconds: number) => () => ({ value, expiresAt: Date.now() + seconds * 1000 })
const t0 = Date.parse('2026-11-24T18:00:00Z')

describe('phone lease machine', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(t0)
  })
  afterEach(() => vi.useRealTimers())

  it('does nothing until the IP is known, then requests at once and checks every 4 s', async () => {
    const { actor, requestedAt } = start([lease('18885550001', 300)])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(requestedAt).toEqual([])
    actor.send({ type: 'IP_KNOWN' })
    await vi.advanceTimersByTimeAsync(0)
    expect(requestedAt).toEqual([t0 + 60_000])
    expect(actor.getSnapshot().context.leased?.value).toBe('18885550001')
    // A 300 s lease is not renewed while more than 20 s remain.
    await vi.advanceTimersByTimeAsync(276_000)
    expect(requestedAt).toHaveLength(1)
    expect(actor.getSnapshot().value).toBe('waiting')
  })

  it('renews when under 20 s remain, on the next 4 s check', async () => {
    const { actor, requestedAt } = start([lease('18885550001', 30), lease('18885550002', 300)])
    actor.send({ type: 'IP_KNOWN' })
    await vi.advanceTimersByTimeAsync(0)
    // 30 s lease: checks at 4 and 8 s see 26 and 22 s left; the check at 12 s sees 18 s and renews.
    await vi.advanceTimersByTimeAsync(11_999)
    expect(requestedAt).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(requestedAt.map((t) => t - t0)).toEqual([0, 12_000])
    expect(actor.getSnapshot().context.leased?.value).toBe('18885550002')
  })

  it('a quote-field change cuts the expiry to 10 s from now, which leads to a new lease', async () => {
    const { actor, requestedAt } = start([lease('18885550001', 300), lease('18885550002', 300)])
    actor.send({ type: 'IP_KNOWN' })
    await vi.advanceTimersByTimeAsync(5_000)
    actor.send({ type: 'QUOTE_CHANGED' })
    expect(actor.getSnapshot().context.leased?.expiresAt).toBe(t0 + 5_000 + 10_000)
    await vi.advanceTimersByTimeAsync(3_000) // the check at 8 s
    expect(requestedAt.map((t) => t - t0)).toEqual([0, 8_000])
    expect(actor.getSnapshot().context.leased?.value).toBe('18885550002')
  })

  it('a change never lengthens a lease that ends sooner than 10 s', async () => {
    const { actor } = start([lease('18885550001', 300)])
    actor.send({ type: 'IP_KNOWN' })
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'QUOTE_CHANGED' })
    await vi.advanceTimersByTimeAsync(2_000)
    const cut = actor.getSnapshot().context.leased!.expiresAt
    actor.send({ type: 'QUOTE_CHANGED' })
    expect(actor.getSnapshot().context.leased!.expiresAt).toBe(cut)
  })

  it('failures keep the last good number until it expires, then the default shows', async () => {
    const boom = () => new Error('marketplace down')
    const { actor, requestedAt, shown } = start([lease('18885550001', 30), boom, boom, boom, boom, boom])
    expect(shown()).toBe(DEFAULT)
    actor.send({ type: 'IP_KNOWN' })
    await vi.advanceTimersByTimeAsync(0)
    expect(shown()).toBe('18885550001')
    await vi.advanceTimersByTimeAsync(24_000) // failed renewals at 12, 16, 20, 24 s
    expect(requestedAt.length).toBeGreaterThan(2)
    expect(shown()).toBe('18885550001')
    expect(actor.getSnapshot().status).toBe('active')
    await vi.advanceTimersByTimeAsync(6_000) // past 30 s
    expect(shown()).toBe(DEFAULT)
    await vi.advanceTimersByTimeAsync(4_000)
    expect(actor.getSnapshot().context.leased).toBeNull()
  })

  it('a change while a request is out cuts the number that request brings', async () => {
    let answer: (v: LeasedPhone | null) => void = () => {}
    const machine = leaseMachine.provide({
      actors: {
        requestPhone: fromPromise(
          () =>
            new Promise<LeasedPhone | null>((r) => {
              answer = r
            }),
        ),
      },
    })
    const actor = createActor(machine, { input: {} }).start()
    actor.send({ type: 'IP_KNOWN' })
    await vi.advanceTimersByTimeAsync(1_000)
    actor.send({ type: 'QUOTE_CHANGED' })
    answer({ value: '18885550004', expiresAt: Date.now() + 300_000 })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().context.leased).toEqual({
      value: '18885550004',
      expiresAt: t0 + 1_000 + 10_000,
    })
  })

  it('an answer without a usable number changes nothing', async () => {
    const { actor, requestedAt } = start([() => null, lease('18885550003', 300)])
    actor.send({ type: 'IP_KNOWN' })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().context.leased).toBeNull()
    await vi.advanceTimersByTimeAsync(4_000)
    expect(requestedAt).toHaveLength(2)
    expect(actor.getSnapshot().context.leased?.value).toBe('18885550003')
  })
})
