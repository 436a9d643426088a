import { afterEach, describe, expect, it, vi } from 'vitest'
import { RESOLUTION_SCRIPT_ID, serializeForScript } from '../../engine/render/resolution-script'
import { startFunnelIslands } from '../islands/funnel-islands'
import { hydratePage } from './hydrate'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('hydratePage', () => {
  it('logs a mount failure to the console and rethrows it (spec point 8)', () => {
    const errors: unknown[][] = []
    vi.spyOn(console, 'error').mockImplementation((...args) => {
      errors.push(args)
    })
    const Page = () => null
    expect(() => hydratePage(Page, { getElementById: () => null })).toThrow(/Cannot mount/)
    expect(errors).toHaveLength(1)
    expect(errors[0]![0]).toBe('Failed to mount the app:')
    expect(String(errors[0]![1])).toMatch(/Cannot mount/)
  })

  it('refuses a page whose resolution script is missing even when #root exists', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const doc = { getElementById: (id: string) => (id === 'root' ? ({} as HTMLElement) : null) }
    expect(() => hydratePage(() => null, doc)).toThrow(/resolution is missing/)
    expect(RESOLUTION_SCRIPT_ID).toBe('page-resolution')
  })
})

describe('startFunnelIslands (funnel steps hydrate nothing: docs/decisions/0524)', () => {
  it('logs a mount failure to the console and rethrows it, as whole pages do (spec point 8)', () => {
    const errors: unknown[][] = []
    vi.spyOn(console, 'error').mockImplementation((...args) => {
      errors.push(args)
    })
    const doc = { getElementById: () => null } as unknown as Document
    expect(() => startFunnelIslands(doc)).toThrow(/Cannot mount/)
    expect(errors).toHaveLength(1)
    expect(errors[0]![0]).toBe('Failed to mount the app:')
  })
})

describe('serializeForScript', () => {
  it('cannot close the script element or open a comment, and round-trips', () => {
    const value = { title: '</script><script>alert(1)</script>', note: '<!-- & \u2028 \u2029 >' }
    const text = serializeForScript(value)
    expect(text).not.toMatch(/[<>&\u2028\u2029]/)
    expect(JSON.parse(text)).toEqual(value)
  })
})
