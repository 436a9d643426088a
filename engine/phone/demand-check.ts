import { LOW_BID_THRESHOLD } from '../constants'
import type { DemandCheckResult } from '../runtime-contracts'

/** Reads the proxy's answer `{ parsed: { ctc: { ev } }, raw }`: the estimated value is the bid. */
export function parseDemandCheckAnswer(answer: unknown): DemandCheckResult | null {
  const ev = (answer as { parsed?: { ctc?: { ev?: unknown } } } | null)?.parsed?.ctc?.ev
  const bid = typeof ev === 'string' ? Number(ev) : ev
  if (typeof bid !== 'number' || !Number.isFinite(bid)) return null
  return { bid, isLowBid: bid < LOW_BID_THRESHOLD }
}
