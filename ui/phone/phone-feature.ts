/**
 * The phone feature in the browser: picks the phone rule, looks up the IP, runs the lease machine,
 * installs the demand-check executor, and tells components what to show. Started once per page
 * load, after hydration; every failure is silent (the rule's default number stays).
 */
import { createActor, fromPromise } from 'xstate'
import { parseDemandCheckAnswer } from '../../engine/phone/demand-check'
import { leaseMachine } from '../../engine/phone/lease-machine'
import { type LeasedPhone, parseLeasedPhone } from '../../engine/phone/leased-phone'
import { demandCheckBody, getPhoneBody } from '../../engine/phone/payloads'
import { touchesQuoteField } from '../../engine/phone/quote-fields'
import { selectPhoneRule } from '../../engine/phone/select-phone-rule'
import type { Resolution } from '../../engine/render/resolution'
import type { DemandCheckResult } from '../../engine/runtime-contracts'
import type { PhoneRule } from '../../schemas/generated/phone-rule'
import { installServices, onFormValues, services } from '../runtime/services'
import { type IpLookupAnswer, marketplaceFacts, visitorIdentity } from './visitor-facts'

/** Client-side cap on one phone request; the server's own upstream timeout is shorter. */
const REQUEST_TIMEOUT_MS = 5_000

export interface PhoneState {
  rule: PhoneRule | null
  leased: LeasedPhone | null
  utmMedium: string | null
}

type Listener = () => void
let state: PhoneState = { rule: null, leased: null, utmMedium: null }
let started = false
const listeners = new Set<Listener>()

function setState(next: Partial<PhoneState>): void {
  state = { ...state, ...next }
  for (const l of listeners) l()
}

export function getPhoneState(): PhoneState {
  return state
}

export function subscribePhone(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

async function postJson(path: string, body: unknown): Promise<unknown> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  })
  if (!res.ok) throw new Error(`${path} answered ${res.status}`)
  return res.json()
}

async function lookupIp(): Promise<IpLookupAnswer> {
  const res = await fetch('/api/ip', { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
  if (!res.ok) throw new Error(`/api/ip answered ${res.status}`)
  return (await res.json()) as IpLookupAnswer
}

/** Starts the feature for this page (idempotent). */
export function startPhoneFeature(resolution: Resolution): void {
  if (started || typeof window === 'undefined') return
  started = true
  const brandId = resolution.brand?.id
  const rules = resolution.phoneRules ?? []
  if (!brandId || !rules.length) return
  const pageKey = resolution.page?.key ?? null
  const { urlParams } = visitorIdentity()
  const rule = selectPhoneRule(rules, {
    brandId,
    pageKey,
    utmSource: urlParams.utm_source,
    afid: urlParams.afid,
  })
  if (!rule) return
  setState({ rule, utmMedium: urlParams.utm_medium ?? null })
  // Without a configured marketplace there is nothing to lease or check: the rule's default number
  // shows, and no request is made that could only answer 503.
  if (resolution.thirdParty.marketplace === false) {
    installServices({ phoneRule: rule })
    return
  }

  const ip = lookupIp()
  ip.catch(() => {}) // no IP, no lease: the default number stays

  const demandCheck = async (): Promise<DemandCheckResult | null> => {
    try {
      const facts = marketplaceFacts(brandId, pageKey, rule, await ip)
      const result = parseDemandCheckAnswer(
        await postJson('/api/mediaalpha/demand-check', demandCheckBody(facts, services.formValues)),
      )
      if (!result) return null
      installServices({ lastDemand: result })
      services.track('lowBidResult', { bid: result.bid, isLowBid: result.isLowBid })
      return result
    } catch {
      return null
    }
  }
  installServices({ phoneRule: rule, demandCheck })

  const machine = leaseMachine.provide({
    actors: {
      requestPhone: fromPromise(async () => {
        const facts = marketplaceFacts(brandId, pageKey, rule, await ip)
        return parseLeasedPhone(
          await postJson('/api/mediaalpha/get-phone', getPhoneBody(facts, services.formValues)),
        )
      }),
    },
  })
  const actor = createActor(machine, { input: {} })
  actor.subscribe((s) => {
    if (s.context.leased !== state.leased) setState({ leased: s.context.leased })
  })
  actor.start()
  ip.then(
    () => actor.send({ type: 'IP_KNOWN' }),
    () => {},
  )
  onFormValues((_values, changed) => {
    if (touchesQuoteField(changed)) actor.send({ type: 'QUOTE_CHANGED' })
  })
}
