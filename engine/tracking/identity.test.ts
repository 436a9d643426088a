import { describe, expect, it } from 'vitest'
import { planIdentity } from './identity'

let n = 0
const newId = () => `id-${++n}`

describe('anonymous-id linking (spec point 4)', () => {
  it('a first visit creates both ids and has nothing to link', () => {
    const plan = planIdentity({ userId: null, anonymousId: null, anonIdLinked: false }, newId)
    expect(plan.anonLink).toBeNull()
    expect(plan.anonIdLinked).toBe(true)
    expect(plan.userId).not.toBe(plan.anonymousId)
  })

  it('a stored anonymousId not yet linked emits anonLink with oldUserId once, then the flag is set', () => {
    const first = planIdentity({ userId: null, anonymousId: 'legacy-1', anonIdLinked: false }, newId)
    expect(first.anonLink).toEqual({ oldUserId: 'legacy-1' })
    expect(first.anonIdLinked).toBe(true)
    const second = planIdentity(
      { userId: first.userId, anonymousId: first.anonymousId, anonIdLinked: first.anonIdLinked },
      newId,
    )
    expect(second.anonLink).toBeNull()
    expect(second.userId).toBe(first.userId)
  })

  it('an already linked anonymousId is kept without an event', () => {
    const plan = planIdentity({ userId: 'u-1', anonymousId: 'a-1', anonIdLinked: true }, newId)
    expect(plan).toEqual({ userId: 'u-1', anonymousId: 'a-1', anonIdLinked: true, anonLink: null })
  })
})
