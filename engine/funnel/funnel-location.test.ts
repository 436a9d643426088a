import { describe, expect, it } from 'vitest'
import { funnelLocation, stepUrl } from './funnel-location'

const steps = ['zip', 'medicare', 'name']

describe('funnelLocation', () => {
  it('reads the step route', () => {
    expect(funnelLocation('/quiz/otc', {}, steps)).toEqual({
      basePath: '/quiz/otc',
      stepParam: undefined,
      token: undefined,
    })
    expect(funnelLocation('/quiz/otc/nonsense', { step: 'nonsense' }, steps)).toEqual({
      basePath: '/quiz/otc',
      stepParam: 'nonsense',
      token: undefined,
    })
  })
  it('token variant: a token equal to a step name with no step is that step', () => {
    expect(funnelLocation('/x/medicare', { token: 'medicare' }, steps)).toEqual({
      basePath: '/x',
      stepParam: 'medicare',
      token: undefined,
    })
  })
  it('token variant: otherwise the token stays in the path and the step goes after it', () => {
    const loc = funnelLocation('/x/abc123', { token: 'abc123' }, steps)
    expect(loc).toEqual({ basePath: '/x/abc123', stepParam: undefined, token: 'abc123' })
    expect(stepUrl(loc.basePath, 'zip', '?utm_source=x')).toBe('/x/abc123/zip?utm_source=x')
    expect(funnelLocation('/x/abc123/name', { token: 'abc123', step: 'name' }, steps).basePath).toBe(
      '/x/abc123',
    )
  })
})
