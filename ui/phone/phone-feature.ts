/**
 * The phone feature in the browser: picks the phone rule, looks up the IP, runs the lease machine,
 * installs the demand-check executor, and tells components what to show. Started once per page
 * load, after hydration; every failure is silent (the rule's default number stays).
 */
import { createActor, fromPromise } from 'xstate'
import { parseDemandCheckAnswer } from '../../engine/phone/demand-check'
import { leaseMachine } from '../../engine/phone/lease-machine'
import { type LeasedPhone, parseLeasedPhone } from '../../engine/phone/leased-phone'
import { touchesQuoteField } from '../../engine/phone/quote-fields'
import { selectPhoneRule } from '../../engine/phone/select-phone-rule'
import type { Resolution } from '../../engine/render/resolution'
import type { DemandCheckResult, TrackFn, VisitorIdentity } from '../../engine/runtime-contracts'
import type { MarketplaceRequest } from '../../schemas/generated/api-marketplace-request'
import type { PhoneRule } from '../../schemas/generated/phone-rule'
import type { FormValuesHub } from '../runtime/form-values'
import { createStore, type Store } from '../runtime/store'
import { type IpLookupAnswer, marketplaceRequest, visitorIdentity } from './visitor-facts'

/** Client-side cap on one phone request; the server's own upstream timeout is shorter. */
const REQUEST_TIMEOUT_MS = 5_000

export interface PhoneState {
  rule: PhoneRule | null
  leased: LeasedPhone | null
  utmMedium: string | null
}

export const NO_PHONE: PhoneState = { rule: null, leased: null, utmMedium: null }

/** What the phone feature needs from the rest of the runtime. */
export interface PhoneLineDeps {
  identity: () => VisitorIdentity | undefined
  track: TrackFn
  formValues: FormValuesHub
}

export interface PhoneLineControl extends Store<PhoneState> {
  /** The demand-check executor of funnel actions (spec point 4); null when it cannot run. */
  demandCheck(): Promise<DemandCheckResult | null>
  /** The last demand-check result, for conditions such as `low-bid`. */
  lastDemand(): DemandCheckResult | null
}

async function postJson(path: string, body: unknown): Promise<unknown> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  })
  if (!res.ok) {
    await res.body?.cancel()
    throw new Error(`${path} answered ${res.status}`)
  }
  return res.json()
}

async function lookupIp(): Promise<IpLookupAnswer> {
  const res = await fetch('/api/ip', { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
  if (!res.ok) {
    await res.body?.cancel()
    throw new Error(`/api/ip answered ${res.status}`)
  }
  return (await res.json()) as IpLookupAnswer
}

/** The number a funnel visitor holds at the server (its answers stay there): null when none. */
async function visitorLease(request: MarketplaceRequest): Promise<LeasedPhone | null> {
  const res = await fetch('/api/funnel/phone', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...request, values: {} }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  })
  if (res.status !== 200) {
    await res.body?.cancel()
    if (res.status === 204) return null
    throw new Error(`/api/funnel/phone answered ${res.status}`)
  }
  return parseLeasedPhone(await res.json())
}

/** Starts the feature for this page: once per page load, from the client runtime. */
export function startPhoneLine(resolution: Resolution, deps: PhoneLineDeps): PhoneLineControl {
  const store = createStore<PhoneState>(NO_PHONE)
  const setState = (next: Partial<PhoneState>) => store.set({ ...store.get(), ...next })
  let lastDemand: DemandCheckResult | null = null
  const control: PhoneLineControl = {
    get: store.get,
    subscribe: store.subscribe,
    demandCheck: async () => null,
    lastDemand: () => lastDemand,
  }
  const brandId = resolution.brand?.id
  const rules = resolution.phoneRules ?? []
  if (!brandId || !rules.length) return control
  const pageKey = resolution.page?.key ?? null
  const identity = () => visitorIdentity(deps.identity)
  const { urlParams } = identity()
  const rule = selectPhoneRule(rules, {
    brandId,
    pageKey,
    utmSource: urlParams.utm_source,
    afid: urlParams.afid,
  })
  if (!rule) return control
  setState({ rule, utmMedium: urlParams.utm_medium ?? null })
  // Without a configured marketplace there is nothing to lease or check: the rule's default number
  // shows, and no request is made that could only answer 503.
  if (resolution.thirdParty.marketplace === false) return control
  // The thank-you page of a funnel shows the number the server decided (0233) and leases nothing.
  if (resolution.visitorPhone && resolution.view !== 'funnel') {
    setState({ leased: resolution.visitorPhone.leased })
    return control
  }

  const ip = lookupIp()
  ip.catch(() => {}) // no IP, no lease: the default number stays
  // What the server builds the marketplace body from (docs/decisions/0523), read at each request.
  const request = async () =>
    marketplaceRequest(brandId, pageKey, rule, await ip, identity(), deps.formValues.current())

  control.demandCheck = async () => {
    try {
      const result = parseDemandCheckAnswer(await postJson('/api/mediaalpha/demand-check', await request()))
      if (!result) return null
      lastDemand = result
      deps.track('lowBidResult', { bid: result.bid, isLowBid: result.isLowBid })
      return result
    } catch {
      return null
    }
  }

  // On a funnel step the lease is the visitor's at the server (0235): the loop asks for the number the
  // server holds (leased anew there only when due, with the answers it holds), starting from the one
  // the page was rendered with, so the same walk leases the same with JavaScript on and off.
  const funnelStep = resolution.view === 'funnel'
  const machine = leaseMachine.provide({
    actors: {
      requestPhone: fromPromise(async () =>
        funnelStep
          ? visitorLease(await request())
          : parseLeasedPhone(await postJson('/api/mediaalpha/get-phone', await request())),
      ),
    },
  })
  const actor = createActor(machine, { input: { leased: resolution.visitorPhone?.leased ?? null } })
  actor.subscribe((s) => {
    if (s.context.leased !== store.get().leased) setState({ leased: s.context.leased })
  })
  actor.start()
  ip.then(
    () => actor.send({ type: 'IP_KNOWN' }),
    () => {},
  )
  deps.formValues.subscribe((_values, changed) => {
    if (touchesQuoteField(changed)) actor.send({ type: 'QUOTE_CHANGED' })
  })
  return control
}
