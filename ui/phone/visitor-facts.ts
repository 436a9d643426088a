import { TRACKED_URL_PARAMS } from '../../engine/constants'
import { QUOTE_FIELDS } from '../../engine/phone/quote-fields'
import type { FormValues, VisitorIdentity } from '../../engine/runtime-contracts'
import type { MarketplaceRequest } from '../../schemas/generated/api-marketplace-request'
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

/**
 * What the browser tells the server for a marketplace request, read at the moment of the request:
 * the server builds the marketplace body from it, with the IP and user agent it sees
 * (server/api/mediaalpha.ts, docs/decisions/0523). Only the quote answers go.
 */
export function marketplaceRequest(
  brandId: string,
  pageKey: string | null,
  rule: PhoneRule,
  ip: IpLookupAnswer,
  identity: VisitorIdentity,
  values: FormValues,
): MarketplaceRequest {
  const quote: MarketplaceRequest['values'] = {}
  for (const name of QUOTE_FIELDS) {
    const v = values[name]
    if (v !== undefined) quote[name] = v
  }
  const urlParams: MarketplaceRequest['urlParams'] = {}
  for (const [name, v] of Object.entries(identity.urlParams)) if (v !== undefined) urlParams[name] = v
  return {
    brandId,
    pageKey,
    localHour: new Date().getHours(),
    placementId: rule.placementId,
    ruleAfid: rule.afid,
    url: window.location.href,
    urlParams,
    userId: identity.userId,
    sessionId: identity.sessionId,
    geo: { postalCode: ip.geo.postalCode, stateCode: ip.geo.stateCode },
    values: quote,
  }
}
