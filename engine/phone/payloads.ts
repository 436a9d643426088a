/**
 * Request bodies for the ad marketplace (spec points 5, 6 and 7). Pure: every fact comes in as an
 * argument. The server builds them (server/api/mediaalpha.ts) from what the browser sends
 * (api-marketplace-request), so the browser downloads none of these rules (docs/decisions/0523).
 */
import type { DemandCheckBody } from '../../schemas/generated/api-demand-check-body'
import type { GetPhoneBody } from '../../schemas/generated/api-get-phone-body'
import type { AutoData, MedicareData, Source } from '../../schemas/generated/api-marketplace'
import {
  AUTO_BRAND_IDS,
  AUTO_ZIP_FALLBACK,
  DEMAND_CHECK_CALL_TYPE,
  DEMAND_CHECK_MAX,
  DEMAND_CHECK_TRANSFER_TYPE,
  MARKETPLACE_PROTOCOL_VERSION,
  PHONE_LEASE_TIME_S,
  SOURCE_ARRAY_LENGTH,
  SOURCE_NULL_TEXT,
} from '../constants'
import type { FormValues } from '../runtime-contracts'
import {
  addressOf,
  contactOf,
  creditRatingOf,
  currentCompanyOf,
  emailOf,
  fiveDigitZip,
  flagOf,
  phoneOf,
  vehicleCountOf,
  vehicleMakeOf,
} from './field-rules'

/** What every marketplace request says about the visitor and the page. */
export interface MarketplaceFacts {
  brandId: string
  /** Visitor IP from the IP lookup ('' when unknown; the server replaces it anyway). */
  ip: string
  /** Geo from the IP lookup. */
  geo: { postalCode?: string; stateCode?: string }
  /** Hour of day on the visitor's clock, 0–23. */
  localHour: number
  placementId: string
  /** afid of the chosen phone rule, used when the URL has none. */
  ruleAfid: string
  userAgent: string
  /** The page URL as the visitor sees it. */
  url: string
  pageKey: string | null
  urlParams: Record<string, string | undefined>
  userId: string
  sessionId: string
}

export function isAutoBrand(brandId: string): boolean {
  return (AUTO_BRAND_IDS as readonly string[]).includes(brandId)
}

/** Zip: the zipcode field if 5 digits, else the IP-lookup zip if 5 digits, else `auto` for auto brands. */
export function zipFor(brandId: string, values: FormValues, ipPostalCode?: string): string | undefined {
  return knownZip(values, ipPostalCode) ?? (isAutoBrand(brandId) ? AUTO_ZIP_FALLBACK : undefined)
}

function knownZip(values: FormValues, ipPostalCode?: string): string | undefined {
  return fiveDigitZip(values.zipcode) ?? fiveDigitZip(ipPostalCode)
}

/** Keys whose value is undefined are dropped, so an invalid field is absent rather than null. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T
}

export function autoData(values: FormValues, ipPostalCode?: string): AutoData {
  const make = vehicleMakeOf(values.vehicleMake)
  const count = vehicleCountOf(values.vehicleAmount)
  const vehicles = Array.from({ length: count }, (_, i) =>
    i === 0 && make ? { primary_driver: 0 as const, make } : { primary_driver: 0 as const },
  ) as AutoData['vehicles']
  return compact({
    contact: contactOf(values.firstName, values.lastName),
    email: emailOf(values.email),
    phone: phoneOf(values.phone),
    address: addressOf(values.address),
    zip: knownZip(values, ipPostalCode) ?? AUTO_ZIP_FALLBACK,
    currently_insured: flagOf(values.currentlyInsured),
    current_company: currentCompanyOf(values.insuranceCompany),
    home_ownership: flagOf(values.homeowner),
    vehicles,
    drivers: [
      compact({
        relationship: 'self' as const,
        primary_vehicle: 0 as const,
        credit_rating: creditRatingOf(values.creditRating),
      }),
    ],
  })
}

export function medicareData(values: FormValues, ipPostalCode?: string): MedicareData {
  return compact({
    currently_insured: flagOf(values.haveMedicare),
    dsnp: flagOf(values.haveMedicaid),
    zip: knownZip(values, ipPostalCode),
  })
}

/** Auto payload for tqg and ps, Medicare payload for every other brand (spec point 6). */
export function quoteData(
  brandId: string,
  values: FormValues,
  ipPostalCode?: string,
): AutoData | MedicareData {
  return isAutoBrand(brandId) ? autoData(values, ipPostalCode) : medicareData(values, ipPostalCode)
}

/** The afid: from the URL, else from the phone rule. */
export function afidOf(facts: MarketplaceFacts): string {
  return facts.urlParams.afid?.trim() || facts.ruleAfid
}

/**
 * Seven entries: the afid (or the text null), utm_source, utm_medium, utm_campaign, utm_content,
 * utm_term, the page key; a missing entry is the text null (docs/decisions/0403).
 */
export function sourceOf(facts: MarketplaceFacts): Source {
  const p = facts.urlParams
  const entries = [
    facts.urlParams.afid?.trim() || facts.ruleAfid,
    p.utm_source,
    p.utm_medium,
    p.utm_campaign,
    p.utm_content,
    p.utm_term,
    facts.pageKey ?? undefined,
  ].map((v) => (v && v.trim() !== '' ? v.trim().slice(0, 256) : SOURCE_NULL_TEXT))
  return entries.slice(0, SOURCE_ARRAY_LENGTH) as Source
}

function common(facts: MarketplaceFacts) {
  return {
    ip: facts.ip,
    local_hour: facts.localHour,
    placement_id: facts.placementId,
    ua: facts.userAgent.slice(0, 1024),
    url: facts.url.slice(0, 2048),
    version: MARKETPLACE_PROTOCOL_VERSION as 17,
    sub_1: afidOf(facts).slice(0, 128),
    sub_2: facts.userId.slice(0, 128),
    sub_3: facts.sessionId.slice(0, 128),
    source: sourceOf(facts),
  }
}

export function getPhoneBody(facts: MarketplaceFacts, values: FormValues): GetPhoneBody {
  const { ip, local_hour, placement_id, ua, url, version, sub_1, sub_2, sub_3, source } = common(facts)
  return {
    data: quoteData(facts.brandId, values, facts.geo.postalCode),
    ip,
    local_hour,
    phone_num_lease_time: PHONE_LEASE_TIME_S as 300,
    placement_id,
    ua,
    url,
    version,
    sub_1,
    sub_2,
    sub_3,
    source,
  }
}

/** Demand check: data {zip, state}, each only when known (docs/decisions/0403). */
export function demandCheckBody(facts: MarketplaceFacts, values: FormValues): DemandCheckBody {
  const { ip, local_hour, placement_id, ua, url, version, sub_1, sub_2, sub_3, source } = common(facts)
  const state =
    facts.geo.stateCode && /^[A-Z]{2}$/.test(facts.geo.stateCode) ? facts.geo.stateCode : undefined
  return {
    data: compact({ zip: knownZip(values, facts.geo.postalCode), state }),
    ip,
    local_hour,
    max: DEMAND_CHECK_MAX as 1,
    call_type: DEMAND_CHECK_CALL_TYPE as 'Inbound',
    transfer_type: DEMAND_CHECK_TRANSFER_TYPE as 'cold',
    placement_id,
    ua,
    url,
    version,
    sub_1,
    sub_2,
    sub_3,
    source,
  }
}
