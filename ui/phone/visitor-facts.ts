import { TRACKED_URL_PARAMS } from '../../engine/constants'
import type { MarketplaceFacts } from '../../engine/phone/payloads'
import type { VisitorIdentity } from '../../engine/runtime-contracts'
import type { PhoneRule } from '../../schemas/generated/phone-rule'

/** URL parameters from the address bar, for when tracking has not installed its identity. */
function urlParamsFromLocation(search: string): Record<string, string | undefined> {
  const q = new URLSearchParams(search)
  const out: Record<string, string | undefined> = {}
  for (const name of TRACKED_URL_PARAMS) {
    const v = q.get(name)
    if (v) out[name] = v
  }
  return out
}

/** The tracker's identity, or empty ids and the address bar's parameters. */
export function visitorIdentity(tracked: () => VisitorIdentity | undefined): VisitorIdentity {
  const fallback = { userId: '', sessionId: '', urlParams: urlParamsFromLocation(window.location.search) }
  try {
    const id = tracked()
    if (!id) return fallback
    return {
      userId: id.userId ?? '',
      sessionId: id.sessionId ?? '',
      urlParams: { ...fallback.urlParams, ...(id.urlParams ?? {}) },
    }
  } catch {
    return fallback
  }
}

export interface IpLookupAnswer {
  value: string
  geo: { postalCode?: string; stateCode?: string; cityName?: string; isp?: string }
}

/** Everything a marketplace request says about this visitor, read at the moment of the request. */
export function marketplaceFacts(
  brandId: string,
  pageKey: string | null,
  rule: PhoneRule,
  ip: IpLookupAnswer,
  identity: VisitorIdentity,
): MarketplaceFacts {
  return {
    brandId,
    ip: ip.value,
    geo: ip.geo,
    localHour: new Date().getHours(),
    placementId: rule.placementId,
    ruleAfid: rule.afid,
    userAgent: navigator.userAgent,
    url: window.location.href,
    pageKey,
    urlParams: identity.urlParams,
    userId: identity.userId,
    sessionId: identity.sessionId,
  }
}
