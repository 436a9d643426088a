import { isWithinBusinessHours } from '../../engine/phone/business-hours'
import { displayedNumber } from '../../engine/phone/leased-phone'
import { type PhoneDisplay, phoneDisplay } from '../../engine/phone/phone-format'
import type { PhoneState } from './phone-feature'

/** How often the open/closed state and an expiring lease are re-read. */
export const PHONE_RECHECK_MS = 5_000

export type PhoneLine =
  /** Outside business hours, or no phone rule for this brand: show no number. */
  { status: 'closed' } | ({ status: 'open'; leased: boolean } & PhoneDisplay)

/** The phone line to show at `now` for the phone feature's state (drawn by phone-dom.ts). */
export function phoneLineAt(phone: PhoneState, now: number): PhoneLine {
  if (!phone.rule || !isWithinBusinessHours(now, phone.utmMedium)) return { status: 'closed' }
  const number = displayedNumber(phone.leased, phone.rule.defaultNumber, now)
  if (!number) return { status: 'closed' }
  return { status: 'open', leased: number !== phone.rule.defaultNumber, ...phoneDisplay(number) }
}
