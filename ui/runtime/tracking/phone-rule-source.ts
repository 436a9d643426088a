import type { EventPhoneRule } from '../../../schemas/generated/analytics-event'

/**
 * The phone rule in every event's context (spec point 3) comes from the phone feature, which
 * installs a provider with setPhoneRuleSource; until then events carry null.
 */
let source: () => EventPhoneRule = () => null

export function setPhoneRuleSource(provider: () => EventPhoneRule): void {
  source = provider
}

export function currentPhoneRule(): EventPhoneRule {
  try {
    return source() ?? null
  } catch {
    return null
  }
}
