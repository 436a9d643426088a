import { afterEach, describe, expect, it, vi } from 'vitest'
import onRenderClient from './+onRenderClient'

afterEach(() => {
  vi.restoreAllMocks()
  delete (globalThis as { document?: unknown }).document
})

describe('onRenderClient', () => {
  it('logs a mount failure to the console and rethrows it (spec point 8)', () => {
    ;(globalThis as { document?: unknown }).document = { getElementById: () => null }
    const errors: unknown[][] = []
    vi.spyOn(console, 'error').mockImplementation((...args) => {
      errors.push(args)
    })
    const Page = () => null
    expect(() => onRenderClient({ Page, resolution: undefined } as never)).toThrow(/Cannot mount/)
    expect(errors).toHaveLength(1)
    expect(errors[0]![0]).toBe('Failed to mount the app:')
    expect(String(errors[0]![1])).toMatch(/Cannot mount/)
  })
})
