import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Brand } from '../../engine/snapshot/types'
import { Disclaimers } from './Disclaimers'

const brand = (id: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'definitions', 'brands', `${id}.json`), 'utf8'),
  ) as Brand

describe('disclaimers', () => {
  it('Medicare pages say they are not the government and link the advertising disclosure', () => {
    const html = renderToStaticMarkup(<Disclaimers brand={brand('m10')} siteName="Medicare10" />)
    expect(html).toContain(
      'not connected with or endorsed by the U.S. government or the federal Medicare program',
    )
    expect(html).toContain('licensed insurance agents')
    expect(html).toContain('href="/ads"')
  })

  it('Spanish pages get Spanish disclaimers', () => {
    const html = renderToStaticMarkup(
      <Disclaimers brand={brand('mpa')} siteName="MyPlanAdvocate" language="es" />,
    )
    expect(html).toContain('No estamos conectados ni respaldados por el gobierno')
  })
})
