import { useEffect, useState } from 'react'
import { useRuntime } from '../runtime/runtime-context'
import { useStore } from '../runtime/use-store'
import { NO_PHONE } from './phone-feature'
import { PHONE_RECHECK_MS, type PhoneLine, phoneLineAt } from './phone-line'

export type { PhoneLine } from './phone-line'

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
    const timer = setInterval(() => setNow(Date.now()), PHONE_RECHECK_MS)
    return () => clearInterval(timer)
  }, [])
  if (!hydrated) return { status: 'pending' }
  return phoneLineAt(phone, Math.max(now, Date.now()))
}
