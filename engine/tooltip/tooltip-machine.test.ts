import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from '../constants'
import { tooltipMachine, tooltipStateFor } from './tooltip-machine'

function start() {
  const actor = createActor(tooltipMachine).start()
  const state = (id: string) => tooltipStateFor(actor.getSnapshot(), id)
  return { actor, state }
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('tooltip machine', () => {
  it('opens after the hover delay, not before', () => {
    const { actor, state } = start()
    actor.send({ type: 'POINTER_ENTER', id: 'a' })
    vi.advanceTimersByTime(TOOLTIP_OPEN_DELAY_MS - 1)
    expect(state('a')).toBe('closed')
    vi.advanceTimersByTime(1)
    expect(state('a')).toBe('delayed-open')
  })

  it('leaving before the delay cancels the open', () => {
    const { actor, state } = start()
    actor.send({ type: 'POINTER_ENTER', id: 'a' })
    vi.advanceTimersByTime(TOOLTIP_OPEN_DELAY_MS / 2)
    actor.send({ type: 'POINTER_LEAVE', id: 'a' })
    vi.advanceTimersByTime(TOOLTIP_OPEN_DELAY_MS * 2)
    expect(state('a')).toBe('closed')
  })

  it('opens instantly on keyboard focus', () => {
    const { actor, state } = start()
    actor.send({ type: 'FOCUS', id: 'a' })
    expect(state('a')).toBe('instant-open')
  })

  it('opens instantly within the skip window after another closed, with delay after it', () => {
    const { actor, state } = start()
    actor.send({ type: 'FOCUS', id: 'a' })
    actor.send({ type: 'BLUR', id: 'a' })
    vi.advanceTimersByTime(TOOLTIP_SKIP_DELAY_MS - 1)
    actor.send({ type: 'POINTER_ENTER', id: 'b' })
    expect(state('b')).toBe('instant-open')
    actor.send({ type: 'POINTER_LEAVE', id: 'b' })
    vi.advanceTimersByTime(TOOLTIP_SKIP_DELAY_MS)
    actor.send({ type: 'POINTER_ENTER', id: 'c' })
    expect(state('c')).toBe('closed')
    vi.advanceTimersByTime(TOOLTIP_OPEN_DELAY_MS)
    expect(state('c')).toBe('delayed-open')
  })

  const reasons = [
    ['POINTER_LEAVE', 'leave'],
    ['BLUR', 'blur'],
    ['CLICK', 'click'],
    ['SCROLL', 'scroll'],
    ['ESCAPE', 'escape'],
  ] as const
  for (const [type, reason] of reasons) {
    it(`closes on ${reason}`, () => {
      const { actor, state } = start()
      actor.send({ type: 'FOCUS', id: 'a' })
      actor.send(type === 'ESCAPE' ? { type } : { type, id: 'a' })
      expect(state('a')).toBe('closed')
      expect(actor.getSnapshot().context.lastCloseReason).toBe(reason)
    })
  }

  it('ignores close events from a tooltip that is not open', () => {
    const { actor, state } = start()
    actor.send({ type: 'FOCUS', id: 'a' })
    actor.send({ type: 'POINTER_LEAVE', id: 'b' })
    actor.send({ type: 'SCROLL', id: 'b' })
    expect(state('a')).toBe('instant-open')
  })

  it('keeps one tooltip open at a time: another opening closes the first', () => {
    const { actor, state } = start()
    actor.send({ type: 'POINTER_ENTER', id: 'a' })
    vi.advanceTimersByTime(TOOLTIP_OPEN_DELAY_MS)
    expect(state('a')).toBe('delayed-open')
    actor.send({ type: 'FOCUS', id: 'b' })
    expect(state('a')).toBe('closed')
    expect(state('b')).toBe('instant-open')
    expect(actor.getSnapshot().context.lastCloseReason).toBe('replaced')
  })

  it('moving to another trigger during the hover delay restarts the delay for it', () => {
    const { actor, state } = start()
    actor.send({ type: 'POINTER_ENTER', id: 'a' })
    vi.advanceTimersByTime(TOOLTIP_OPEN_DELAY_MS - 100)
    actor.send({ type: 'POINTER_ENTER', id: 'b' })
    vi.advanceTimersByTime(100)
    expect(state('a')).toBe('closed')
    expect(state('b')).toBe('closed')
    vi.advanceTimersByTime(TOOLTIP_OPEN_DELAY_MS - 100)
    expect(state('b')).toBe('delayed-open')
  })
})
