import { describe, expect, it } from 'vitest'
import trackedSchema from '../../schemas/visitor-record.schema.json' with { type: 'json' }
import { TRACKED_URL_PARAMS } from '../constants'
import { captureUrlParams, sameParams } from './url-params'

describe('tracked URL parameters (spec point 3)', () => {
  it('captures every tracked parameter and nothing else', () => {
    const all = TRACKED_URL_PARAMS.map((k) => `${k}=v-${k}`).join('&')
    expect(captureUrlParams(`?${all}&email=a@b.c&ttclid=zzz&step=2`)).toEqual(
      Object.fromEntries(TRACKED_URL_PARAMS.map((k) => [k, `v-${k}`])),
    )
  })

  it('leaves out empty values and decodes', () => {
    expect(captureUrlParams('?utm_source=&utm_campaign=spring%20sale&gclid')).toEqual({
      utm_campaign: 'spring sale',
    })
  })

  it('takes a {token} path segment as token; a query token wins', () => {
    expect(captureUrlParams('', { token: 'path-token', step: 'zip' })).toEqual({ token: 'path-token' })
    expect(captureUrlParams('?token=query-token', { token: 'path-token' })).toEqual({ token: 'query-token' })
  })

  it('keeps at most 512 characters per value', () => {
    expect(captureUrlParams(`?afid=${'a'.repeat(600)}`).afid).toHaveLength(512)
  })

  it('the visitor-record schema lists exactly the tracked parameters', () => {
    expect(Object.keys(trackedSchema.$defs.TrackedUrlParams.properties)).toEqual([...TRACKED_URL_PARAMS])
  })

  it('compares parameter sets', () => {
    expect(sameParams({ gclid: 'a' }, { gclid: 'a' })).toBe(true)
    expect(sameParams({ gclid: 'a' }, { gclid: 'a', afid: '1' })).toBe(false)
  })
})
