import { afterEach, describe, expect, it } from 'vitest'
import { SCROLL_HASH_OFFSET_PX } from '../../engine/constants'
import { hashTarget, scrollAfterRouteChange } from './scroll'

type G = Record<string, unknown>
const g = globalThis as unknown as G

function page(elements: Record<string, number>, scrollY = 0) {
  const calls: { top: number }[] = []
  g.document = {
    getElementById: (id: string) =>
      id in elements ? { getBoundingClientRect: () => ({ top: elements[id]! - scrollY }) } : null,
    getElementsByName: () => [],
  }
  g.window = { scrollY, scrollTo: (o: { top: number }) => calls.push(o) }
  g.matchMedia = () => ({ matches: false })
  return calls
}

afterEach(() => {
  delete g.document
  delete g.window
  delete g.matchMedia
})

describe('scroll on route change', () => {
  it('goes to the top without a hash', () => {
    const calls = page({}, 500)
    scrollAfterRouteChange('')
    expect(calls).toEqual([{ top: 0, left: 0, behavior: 'instant' }])
  })

  it(`goes to the hash anchor minus the ${SCROLL_HASH_OFFSET_PX} px offset`, () => {
    const calls = page({ faq: 1200 }, 300)
    scrollAfterRouteChange('#faq')
    expect(calls[0]!.top).toBe(1200 - SCROLL_HASH_OFFSET_PX)
  })

  it('an unknown anchor goes to the top; an anchor near the top does not scroll above 0', () => {
    page({ top: 20 })
    expect(hashTarget('#missing')).toBeNull()
    expect(hashTarget('#top')).toBe(0)
  })
})
