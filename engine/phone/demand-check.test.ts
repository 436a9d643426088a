import { describe, expect, it } from 'vitest'
import { parseDemandCheckAnswer } from './demand-check'

describe('demand-check answer', () => {
  it('reads parsed.ctc.ev as the bid; below 10 is a low bid', () => {
    expect(parseDemandCheckAnswer({ parsed: { ctc: { ev: 25 } }, raw: '{}' })).toEqual({
      bid: 25,
      isLowBid: false,
    })
    expect(parseDemandCheckAnswer({ parsed: { ctc: { ev: 10 } } })).toEqual({ bid: 10, isLowBid: false })
    expect(parseDemandCheckAnswer({ parsed: { ctc: { ev: 9.99 } } })).toEqual({ bid: 9.99, isLowBid: true })
    expect(parseDemandCheckAnswer({ parsed: { ctc: { ev: 0 } } })).toEqual({ bid: 0, isLowBid: true })
    expect(parseDemandCheckAnswer({ parsed: { ctc: { ev: '4.5' } } })).toEqual({ bid: 4.5, isLowBid: true })
  })
  it('anything without a number gives null (the failure is ignored)', () => {
    for (const answer of [
      null,
      {},
      { parsed: null },
      { parsed: { ctc: {} } },
      { parsed: { ctc: { ev: 'n/a' } } },
    ])
      expect(parseDemandCheckAnswer(answer)).toBeNull()
  })
})
