import './tpmo.css'
import type { Brand } from '../../engine/snapshot/types'

/**
 * The CMS third-party marketing organization disclaimer (42 CFR 422.2267(e)(41)) a Medicare page
 * shows, with the brand's configured counts of organizations and plans (brand `tpmo`). Auto and
 * internal brands show nothing; `npm run validate` refuses a Medicare brand without the counts.
 */
export function TpmoDisclaimer({
  brand,
  language,
  className,
}: {
  brand: Brand | null
  language?: string
  className?: string
}) {
  if (brand?.vertical !== 'medicare' || !brand.tpmo) return null
  const { organizations, plans } = brand.tpmo
  return (
    <p className={className ? `tpmo ${className}` : 'tpmo'} data-testid="tpmo-disclaimer">
      {language === 'es'
        ? `No ofrecemos todos los planes disponibles en su área. Actualmente representamos a ${organizations} organizaciones que ofrecen ${plans} productos en su área. Comuníquese con Medicare.gov, 1-800-MEDICARE o con su Programa Estatal de Asistencia sobre Seguros de Salud (SHIP) local para obtener información sobre todas sus opciones.`
        : `We do not offer every plan available in your area. Currently we represent ${organizations} organizations which offer ${plans} products in your area. Please contact Medicare.gov, 1-800-MEDICARE, or your local State Health Insurance Program (SHIP) to get information on all of your options.`}
    </p>
  )
}
