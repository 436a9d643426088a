import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Resolution } from '../../engine/render/resolution'
import { ResolutionContext } from '../shell/resolution-context'
import { HeaderPhone } from './HeaderPhone'
import { PhoneCta } from './PhoneCta'

const resolution = (vertical: 'medicare' | 'internal') =>
  ({
    view: 'content',
    statusCode: 200,
    brand: { id: vertical === 'internal' ? 'ccc' : 'm10', vertical },
    page: { key: 'home-m10', language: 'english' },
    phoneRules: [
      { id: 'm10-default', brand: 'm10', defaultNumber: '18885550101', placementId: 'p', afid: '1' },
    ],
  }) as unknown as Resolution

const render = (node: React.ReactNode, vertical: 'medicare' | 'internal' = 'medicare') =>
  renderToString(<ResolutionContext.Provider value={resolution(vertical)}>{node}</ResolutionContext.Provider>)

describe('server HTML of the phone components does not depend on the visitor', () => {
  it('the header renders an empty slot: no number, whatever the time', () => {
    const html = render(<HeaderPhone />)
    expect(html).toBe('<span class="header-phone-slot" data-island="header-phone"></span>')
  })
  it('the call-to-action reserves its space and shows no number', () => {
    const html = render(<PhoneCta />)
    expect(html).not.toMatch(/tel:|555/)
    expect(html).toContain('phone-cta-pending')
  })
  it('the control center gets no phone slot', () => {
    expect(render(<HeaderPhone />, 'internal')).toBe('')
  })
})
