import type { Brand } from '../../engine/snapshot/types'

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
        <p>
          No ofrecemos todos los planes disponibles en su área. Los beneficios, las asignaciones y las primas
          varían según el plan y el condado; la disponibilidad de planes varía. Para obtener información sobre
          todas sus opciones, comuníquese con Medicare.gov o 1-800-MEDICARE.
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
      <p>
        We do not offer every plan available in your area. Benefits, allowances and premiums vary by plan and
        county, and plan availability varies. Please contact Medicare.gov or 1-800-MEDICARE to get information
        on all of your options.
      </p>
      <p>
        Insurance companies pay us commissions when people enroll through our agents; see our{' '}
        <a href="/ads">advertising disclosure</a>.
      </p>
    </div>
  )
}

/**
 * The TCPA consent shown beside every form that collects a phone number. Exported for the funnel
 * renderer; `buttonLabel` is the text of the submit button the visitor presses to agree.
 */
export function TcpaConsent({
  brand,
  siteName,
  language,
  buttonLabel,
}: {
  brand: Brand
  siteName: string
  language?: string
  buttonLabel: string
}) {
  const topic =
    brand.vertical === 'auto'
      ? 'auto insurance'
      : 'Medicare Advantage, Medicare Supplement and prescription drug plans'
  if (language === 'es') {
    return (
      <p className="tcpa-consent" data-testid="tcpa-consent">
        Al hacer clic en «{buttonLabel}», acepto que {brand.ownerLegalName} ({siteName}) y sus agentes de
        seguros con licencia me contacten al número de teléfono que proporcioné, incluso mediante llamadas y
        mensajes de texto con tecnología automatizada o mensajes pregrabados, para hablar sobre{' '}
        {brand.vertical === 'auto' ? 'seguros de auto' : 'planes de Medicare'}, aunque mi número esté en una
        lista de No Llamar. El consentimiento no es condición de compra y puedo retirarlo en cualquier
        momento. Pueden aplicarse tarifas de mensajes y datos. Consulte nuestra{' '}
        <a href="/privacy">Política de privacidad</a> y nuestros <a href="/tos">Términos</a>.
      </p>
    )
  }
  return (
    <p className="tcpa-consent" data-testid="tcpa-consent">
      By clicking "{buttonLabel}", I agree that {brand.ownerLegalName} ({siteName}) and its licensed insurance
      agents may contact me at the phone number I provided, including by calls and text messages using
      automated technology or prerecorded messages, about {topic}, even if my number is on a Do Not Call list.
      Consent is not a condition of purchase and I can withdraw it at any time. Message and data rates may
      apply. See our <a href="/privacy">Privacy Policy</a> and <a href="/tos">Terms</a>.
    </p>
  )
}
