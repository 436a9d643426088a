import { useEffect, useRef } from 'react'
import { useRuntime } from '../runtime/runtime-context'
import { useResolution } from '../shell/resolution-context'
import './phone.css'
import { mountPhone } from './phone-dom'

/**
 * The call button in the site header, in business hours only: the server renders its empty slot;
 * after hydration `mountPhone` (phone-dom.ts, which static pages' phone island runs too) fills it.
 */
export function HeaderPhone() {
  const { brand, page } = useResolution()
  const phone = useRuntime()?.phone ?? null
  const es = page?.language === 'es'
  const slot = useRef<HTMLSpanElement>(null)
  const internal = !brand || brand.vertical === 'internal'
  useEffect(
    () => (internal ? undefined : mountPhone({ header: slot.current, cta: null }, phone, es)),
    [internal, phone, es],
  )
  if (internal) return null
  return <span ref={slot} className="header-phone-slot" data-island="header-phone" />
}
