import { useEffect, useState } from 'react'
import { isWithinBusinessHours } from '../../engine/phone/business-hours'
import { displayedNumber } from '../../engine/phone/leased-phone'
import { type PhoneDisplay, phoneDisplay } from '../../engine/phone/phone-format'
import { useRuntime } from '../runtime/runtime-context'
import { useStore } from '../runtime/store'
import { NO_PHONE } from './phone-feature'

/** How often the open/closed state and an expiring lease are re-read. */
const RECHECK_MS = 5_000

export type PhoneLine =
  /** Server render and the first client render: nothing is known about the visitor yet. */
  | { status: 'pending' }
  /** Outside business hours, or no phone rule for this brand: show no number. */
  | { status: 'closed' }
  | ({ status: 'open'; leased: boolean } & PhoneDisplay)

/**
 * The phone line to show. Server HTML never depends on the visitor: the first render is `pending`
 * on both sides, and the number appears after hydration.
 */
export function usePhoneLine(): PhoneLine {
  const [hydrated, setHydrated] = useState(false)
  const [now, setNow] = useState(0)
  const phone = useStore(useRuntime()?.phone, NO_PHONE)
  useEffect(() => {
    setHydrated(true)
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), RECHECK_MS)
    return () => clearInterval(timer)
  }, [])
  if (!hydrated) return { status: 'pending' }
  const t = Math.max(now, Date.now())
  if (!phone.rule || !isWithinBusinessHours(t, phone.utmMedium)) return { status: 'closed' }
  const number = displayedNumber(phone.leased, phone.rule.defaultNumber, t)
  if (!number) return { status: 'closed' }
  return { status: 'open', leased: number !== phone.rule.defaultNumber, ...phoneDisplay(number) }
}
