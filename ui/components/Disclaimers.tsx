import type { Brand } from '../../engine/snapshot/types'
import { TpmoDisclaimer } from './TpmoDisclaimer'

/** The disclaimers a Medicare or auto-insurance lead-generation page carries. */
export function Disclaimers({
  brand,
  siteName,
  language,
}: {
  brand: Brand
  siteName: string
  language?: string
}) {
  const es = language === 'es'
  if (brand.vertical === 'auto') {
    return (
      <div className="disclaimers">
        <p>
          {siteName} is operated by {brand.ownerLegalName}, a licensed insurance agency. We are not an
          insurance company. Quotes come from insurers and licensed agents we work with; rates, coverage and
          discounts depend on your driving record, vehicle, location and the insurer's underwriting, and not
          every insurer is available in every state.
        </p>
        <p>
          We may be paid by the insurers and agencies we present; see our{' '}
          <a href="/ads">advertising disclosure</a>.
        </p>
      </div>
    )
  }
  if (brand.vertical === 'internal') return null
  if (es) {
    return (
      <div className="disclaimers">
        <p>
          No estamos conectados ni respaldados por el gobierno de los EE. UU. ni por el programa federal de
          Medicare.
          {` ${siteName}`} es operado por {brand.ownerLegalName}, una agencia de seguros con licencia. Al
          llamar, hablará con un agente de seguros con licencia.
        </p>
        <TpmoDisclaimer brand={brand} language="es" />
        <p>
          Los beneficios, las asignaciones y las primas varían según el plan y el condado; la disponibilidad
          de planes varía.
        </p>
        <p>
          Las aseguradoras nos pueden pagar una comisión; consulte nuestra{' '}
          <a href="/ads">divulgación publicitaria</a> (en inglés).
        </p>
      </div>
    )
  }
  return (
    <div className="disclaimers">
      <p>
        We are not connected with or endorsed by the U.S. government or the federal Medicare program.{' '}
        {siteName} is operated by {brand.ownerLegalName}, a licensed insurance agency. Calls are answered by
        licensed insurance agents.
      </p>
      <TpmoDisclaimer brand={brand} />
      <p>Benefits, allowances and premiums vary by plan and county, and plan availability varies.</p>
      <p>
        Insurance companies pay us commissions when people enroll through our agents; see our{' '}
        <a href="/ads">advertising disclosure</a>.
      </p>
    </div>
  )
}
