import type { TrackedUrlParams, VisitorRecord } from '../../schemas/generated/visitor-record'
import { SESSION_IDLE_TIMEOUT_MS } from '../constants'
import { isPaidTraffic } from './paid-flag'
import { hasAnyParam, sameParams } from './url-params'

export interface VisitInput {
  /** The record kept from earlier pages (any tab), or null on a first visit. */
  stored: VisitorRecord | null
  /** When this browser last sent an event (ms), or null. */
  lastActivityAt: number | null
  userId: string
  anonymousId: string
  /** Tracked parameters of this page (captureUrlParams). */
  urlParams: TrackedUrlParams
  /** Every parameter the paid flag may look at (paidFlagParams). */
  paidParams: Record<string, string>
  now: number
  newId: () => string
}

export interface VisitPlan {
  record: VisitorRecord
  /** True when the record differs from the stored one (it must be synced). */
  changed: boolean
  newSession: boolean
}

/**
 * Where this page view leaves the visitor record. A new session starts after SESSION_IDLE_TIMEOUT_MS
 * of inactivity or when the page brings tracked parameters other than the session's (a new campaign
 * click); its paid flag is fixed then. `urlParams` keeps the first touch. See docs/decisions/0301.
 */
export function planVisit(input: VisitInput): VisitPlan {
  const { stored, now } = input
  const expired =
    !stored || input.lastActivityAt === null || now - input.lastActivityAt > SESSION_IDLE_TIMEOUT_MS
  const newCampaign =
    !!stored && hasAnyParam(input.urlParams) && !sameParams(input.urlParams, stored.session.urlParams)
  const sameIds = !!stored && stored.userId === input.userId && stored.anonymousId === input.anonymousId
  if (stored && !expired && !newCampaign && sameIds)
    return { record: stored, changed: false, newSession: false }
  const newSession = expired || newCampaign || !stored
  const session = newSession
    ? {
        id: input.newId(),
        paid: isPaidTraffic(input.paidParams),
        urlParams: input.urlParams,
        startedAt: now,
      }
    : stored!.session
  const firstTouch = stored && hasAnyParam(stored.urlParams) ? stored.urlParams : input.urlParams
  return {
    record: {
      userId: input.userId,
      anonymousId: input.anonymousId,
      session,
      urlParams: firstTouch,
      updatedAt: now,
    },
    changed: true,
    newSession,
  }
}
