import { describe, expect, it } from 'vitest'
import { ERROR_REPORT_MAX_FRAMES, ERROR_REPORT_MAX_LINE_LENGTH } from '../constants'
import { reportOf, trimStack } from './client-error-report'

describe('client error reports', () => {
  it(`keeps at most ${ERROR_REPORT_MAX_FRAMES} frames after the message`, () => {
    const frames = Array.from({ length: 80 }, (_, i) => `    at f${i} (https://x/app.js:1:${i})`)
    const out = trimStack(['TypeError: boom', ...frames].join('\n')).split('\n')
    expect(out[0]).toBe('TypeError: boom')
    expect(out).toHaveLength(1 + ERROR_REPORT_MAX_FRAMES)
    expect(out.at(-1)).toContain(`f${ERROR_REPORT_MAX_FRAMES - 1} `)
  })

  it('counts Firefox/Safari style frames (fn@url) too', () => {
    const frames = Array.from({ length: 60 }, (_, i) => `f${i}@https://x/app.js:1:${i}`)
    expect(trimStack(frames.join('\n')).split('\n')).toHaveLength(ERROR_REPORT_MAX_FRAMES)
  })

  it(`cuts every line to ${ERROR_REPORT_MAX_LINE_LENGTH} characters`, () => {
    const long = `    at ${'x'.repeat(5000)}`
    const out = trimStack(`Error: m\n${long}`).split('\n')
    expect(out[1]).toHaveLength(ERROR_REPORT_MAX_LINE_LENGTH)
  })

  it('builds a report from a thrown non-error', () => {
    const r = reportOf({ code: 7 }, 'rejection', '/quiz/otc/1')
    expect(r).toMatchObject({ kind: 'rejection', url: '/quiz/otc/1', message: 'Error: {"code":7}' })
  })
})

describe('isChunkLoadError', () => {
  it('recognises the chunk-load messages of Chromium, Firefox and Safari', async () => {
    const { isChunkLoadError } = await import('./client-error-report')
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/a.js')),
    ).toBe(true)
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true)
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isChunkLoadError(new Error('x is undefined'))).toBe(false)
  })
})
