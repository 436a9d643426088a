import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LOADING_THROTTLE_MS } from '../../engine/constants'
import { mountLoadingBar, startLoading } from './loading-bar-island'

/** The parts of the server-rendered bar the island writes. */
function bar() {
  const attributes = new Map<string, string>([['aria-hidden', 'true']])
  return {
    style: { transform: 'scaleX(0)', opacity: '0' } as Record<string, string>,
    setAttribute: (name: string, value: string) => attributes.set(name, value),
    attr: (name: string) => attributes.get(name),
  }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the loading bar island (spec point 2)', () => {
  it('shows only after the throttle, grows, finishes at 100 % and hides', () => {
    const el = bar()
    const unmount = mountLoadingBar(el as unknown as HTMLElement)
    const done = startLoading()
    vi.advanceTimersByTime(LOADING_THROTTLE_MS - 1)
    expect(el.attr('aria-hidden')).toBe('true')
    vi.advanceTimersByTime(1)
    expect(el.attr('aria-hidden')).toBe('false')
    expect(el.style.opacity).toBe('1')
    expect(el.attr('aria-valuenow')).toBe('10')
    vi.advanceTimersByTime(1_000)
    const grown = Number(el.attr('aria-valuenow'))
    expect(grown).toBeGreaterThan(10)
    expect(grown).toBeLessThanOrEqual(90)
    done()
    expect(el.style.transform).toBe('scaleX(1)')
    vi.advanceTimersByTime(250)
    expect(el.attr('aria-hidden')).toBe('true')
    expect(el.style.opacity).toBe('0')
    unmount()
  })

  it('a navigation shorter than the throttle never shows the bar', () => {
    const el = bar()
    const unmount = mountLoadingBar(el as unknown as HTMLElement)
    const done = startLoading()
    vi.advanceTimersByTime(LOADING_THROTTLE_MS / 2)
    done()
    vi.advanceTimersByTime(LOADING_THROTTLE_MS * 2)
    expect(el.attr('aria-hidden')).toBe('true')
    expect(el.style.opacity).toBe('0')
    unmount()
  })
})
