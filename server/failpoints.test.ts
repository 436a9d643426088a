import { describe, expect, it } from 'vitest'
import { armedFailpoints, FAILPOINTS } from './failpoints'

describe('failpoints', () => {
  it('are armed only under NODE_ENV=test, never in production or development', () => {
    const list = `${FAILPOINTS.publishAfterIntent}, ${FAILPOINTS.publishAfterRef}`
    expect([...armedFailpoints({ NODE_ENV: 'test', FW_FAILPOINTS: list })]).toEqual([
      'publish:after-intent',
      'publish:after-ref',
    ])
    expect(armedFailpoints({ NODE_ENV: 'production', FW_FAILPOINTS: list }).size).toBe(0)
    expect(armedFailpoints({ NODE_ENV: 'development', FW_FAILPOINTS: list }).size).toBe(0)
    expect(armedFailpoints({ FW_FAILPOINTS: list }).size).toBe(0)
    expect(armedFailpoints({ NODE_ENV: 'test' }).size).toBe(0)
  })
})
