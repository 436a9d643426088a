import { isWithinBusinessHours } from '../../engine/phone/business-hours'
import { displayedNumber } from '../../engine/phone/leased-phone'
import { type PhoneDisplay, phoneDisplay } from '../../engine/phone/phone-format'
import type { PhoneState } from './phone-feature'

/** How often the open/closed state and an expiring lease are re-read. */
export const PHONE_RECHECK_MS = 5_000

export type PhoneLine =
  /** Server render and the first client render: nothing is known about the visitor yet. */
  | { status: 'pending' }
  /** Outside business hours, or no phone rule for this brand: show no number. */
  | { status: 'closed' }
  | ({ status: 'open'; leased: boolean } & PhoneDisplay)

/**
 * The phone line to show at `now` for the phone feature's state: shared by the React hook
 * (use-phone-line.ts) and the plain-DOM island of static pages (ui/islands/phone-island.ts).
 */
export function phoneLineAt(phone: PhoneState, now: number): Exclude<PhoneLine, { status: 'pending' }> {
  if (!phone.rule || !isWithinBusinessHours(now, phone.utmMedium)) return { status: 'closed' }
  const number = displayedNumber(phone.leased, phone.rule.defaultNumber, now)
  if (!number) return { status: 'closed' }
  return { status: 'open', leased: number !== phone.rule.defaultNumber, ...phoneDisplay(number) }
}
