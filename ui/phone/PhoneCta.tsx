import type { ReactNode } from 'react'
import { useResolution } from '../shell/resolution-context'
import './phone.css'
import { PhoneIcon } from './PhoneIcon'
import { usePhoneLine } from './use-phone-line'

export interface PhoneCtaProps {
  /** Text before the number; default "Call now" / "Llame ahora". */
  label?: string
  /** Shown instead of the phone line when it is closed (e.g. a link to the form). */
  fallback?: ReactNode
}

/**
 * A prominent call button for heroes of call-focused pages. In business hours: the number as a
 * tel: link with its dash format; outside them: `fallback` (or nothing) — never a dead number.
 * Before hydration it reserves its space so the page does not jump. On static pages the phone island
 * (ui/islands/phone-island.ts) fills that space with the same markup.
 */
export function PhoneCta({ label, fallback }: PhoneCtaProps) {
  const { page } = useResolution()
  const line = usePhoneLine()
  const es = page?.language === 'es'
  if (line.status === 'pending')
    return <div className="phone-cta phone-cta-pending" aria-hidden="true" data-island="phone-cta" />
  if (line.status === 'closed') return fallback ? <div className="phone-cta">{fallback}</div> : null
  return (
    <div className="phone-cta">
      <a
        className="button button-primary phone-cta-button"
        href={line.href}
        data-testid="phone-cta"
        data-phone-raw={line.raw}
      >
        <PhoneIcon size={22} />
        <span>
          {label ?? (es ? 'Llame ahora' : 'Call now')}:{' '}
          <span className="phone-cta-number">{line.dashed}</span>
        </span>
      </a>
      <p className="phone-cta-note">
        {es ? 'Agentes con licencia disponibles · TTY 711' : 'Licensed agents available · TTY 711'}
      </p>
    </div>
  )
}
