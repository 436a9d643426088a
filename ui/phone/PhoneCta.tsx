import { useEffect, useRef } from 'react'
import { useRuntime } from '../runtime/runtime-context'
import { useResolution } from '../shell/resolution-context'
import './phone.css'
import { mountPhone } from './phone-dom'

/**
 * A prominent call button for heroes of call-focused pages. In business hours: the number as a
 * tel: link with its dash format; outside them: nothing — never a dead number. The server renders
 * the empty slot that reserves its space (the HTML never depends on the visitor); after hydration
 * `mountPhone` (phone-dom.ts, which static pages' phone island runs too) draws the number in it.
 */
export function PhoneCta() {
  const { page } = useResolution()
  const phone = useRuntime()?.phone ?? null
  const es = page?.language === 'es'
  const slot = useRef<HTMLDivElement>(null)
  useEffect(() => mountPhone({ header: null, cta: slot.current }, phone, es), [phone, es])
  return <div ref={slot} className="phone-cta phone-cta-pending" aria-hidden="true" data-island="phone-cta" />
}
