import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Brand } from '../../engine/snapshot/types'
import { Disclaimers } from './Disclaimers'
import { TpmoDisclaimer } from './TpmoDisclaimer'

const brand = (id: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'definitions', 'brands', `${id}.json`), 'utf8'),
  ) as Brand

describe('the TPMO disclaimer', () => {
  it('shows the CMS wording with the brand’s counts on Medicare brands, in English and Spanish', () => {
    const m10 = brand('m10')
    const { organizations, plans } = m10.tpmo!
    expect(renderToStaticMarkup(<TpmoDisclaimer brand={m10} />)).toContain(
      `We do not offer every plan available in your area. Currently we represent ${organizations} organizations which offer ${plans} products in your area. Please contact Medicare.gov, 1-800-MEDICARE, or your local State Health Insurance Program (SHIP)`,
    )
    expect(renderToStaticMarkup(<TpmoDisclaimer brand={m10} language="es" />)).toContain(
      `Actualmente representamos a ${organizations} organizaciones que ofrecen ${plans} productos en su área.`,
    )
  })

  it('is in the footer disclaimers of Medicare brands and nowhere on auto brands', () => {
    expect(renderToStaticMarkup(<Disclaimers brand={brand('gs')} siteName="GoodSurance" />)).toContain(
      'data-testid="tpmo-disclaimer"',
    )
    const auto = brand('tqg')
    expect(renderToStaticMarkup(<TpmoDisclaimer brand={auto} />)).toBe('')
    expect(renderToStaticMarkup(<Disclaimers brand={auto} siteName="The Quote General" />)).not.toContain(
      'tpmo',
    )
  })
})
