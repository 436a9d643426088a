import { useResolution } from '../shell/resolution-context'
import './phone.css'
import { PhoneIcon } from './PhoneIcon'
import { usePhoneLine } from './use-phone-line'

/**
 * The call button in the site header: shown in business hours only, filled in after hydration (on
 * static pages by the phone island, ui/islands/phone-island.ts, which draws the same markup).
 */
export function HeaderPhone() {
  const { brand, page } = useResolution()
  const line = usePhoneLine()
  if (!brand || brand.vertical === 'internal') return null
  const es = page?.language === 'es'
  return (
    <span className="header-phone-slot" data-island="header-phone">
      {line.status === 'open' && (
        <a
          className="header-phone"
          href={line.href}
          data-testid="header-phone"
          data-phone-raw={line.raw}
          data-phone-leased={line.leased ? 'true' : 'false'}
          aria-label={`${es ? 'Llámenos al' : 'Call us at'} ${line.dashed}`}
        >
          <PhoneIcon />
          <span className="header-phone-number">{line.dashed}</span>
        </a>
      )}
    </span>
  )
}
