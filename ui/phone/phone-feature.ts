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
  // A funnel's lease is the server's (docs/decisions/0233): it leases once the funnel is finished, with
  // every answer, and the thank-you page it renders says which number it showed. That page's line
  // starts from the server's lease and leases nothing itself; a step leases nothing either, so a walk
  // leases the same with JavaScript on and off (the rule's default shows on the steps).
  if (resolution.visitorPhone) {
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

  if (resolution.view === 'funnel') return control

  const machine = leaseMachine.provide({
    actors: {
      requestPhone: fromPromise(async () =>
        parseLeasedPhone(await postJson('/api/mediaalpha/get-phone', await request())),
      ),
    },
  })
  const actor = createActor(machine, { input: {} })
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
