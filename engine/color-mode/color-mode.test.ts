import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { COLOR_MODE_STORAGE_KEY } from '../constants'
import { colorModeInlineScript } from './inline-script'
import { resolveColorMode } from './resolve-color-mode'

describe('resolveColorMode', () => {
  it('defaults to system and follows the OS scheme', () => {
    expect(resolveColorMode({ stored: null, systemDark: true })).toEqual({
      preference: 'system',
      value: 'dark',
      unknown: false,
      forced: false,
    })
    expect(resolveColorMode({ stored: null, systemDark: false }).value).toBe('light')
  })

  it('is unknown for system when the OS scheme is not known (server render)', () => {
    expect(resolveColorMode({ stored: 'system', systemDark: null })).toMatchObject({
      value: 'light',
      unknown: true,
    })
  })

  it('applies a stored explicit preference regardless of the OS', () => {
    expect(resolveColorMode({ stored: 'dark', systemDark: false })).toMatchObject({
      preference: 'dark',
      value: 'dark',
    })
    expect(resolveColorMode({ stored: 'light', systemDark: true }).value).toBe('light')
  })

  it('treats a corrupt stored value as system', () => {
    expect(resolveColorMode({ stored: 'purple', systemDark: true })).toMatchObject({
      preference: 'system',
      value: 'dark',
    })
  })

  it('a route forcing light or dark wins over the preference', () => {
    expect(resolveColorMode({ stored: 'dark', systemDark: true, routeForced: 'light' })).toEqual({
      preference: 'dark',
      value: 'light',
      unknown: false,
      forced: true,
    })
  })

  it('a route forcing system is refused with a warning only', () => {
    const warnings: string[] = []
    const mode = resolveColorMode({
      stored: 'dark',
      systemDark: false,
      routeForced: 'system',
      warn: (m) => warnings.push(m),
    })
    expect(mode).toMatchObject({ value: 'dark', forced: false })
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/system/)
  })
})

describe('the inline head script', () => {
  function run(script: string, stored: string | null, dark: boolean) {
    const dataset: Record<string, string> = {}
    const style: Record<string, string> = {}
    runInNewContext(script, {
      document: { documentElement: { dataset, style } },
      localStorage: { getItem: (k: string) => (k === COLOR_MODE_STORAGE_KEY ? stored : null) },
      matchMedia: () => ({ matches: dark }),
    })
    return { dataset, style }
  }

  for (const stored of [null, 'light', 'dark', 'system', 'bogus'])
    for (const dark of [true, false])
      for (const forced of [undefined, 'light', 'dark', 'system'])
        it(`agrees with resolveColorMode (stored ${stored}, OS dark ${dark}, forced ${forced})`, () => {
          const expected = resolveColorMode({ stored, systemDark: dark, routeForced: forced })
          const { dataset, style } = run(colorModeInlineScript(forced), stored, dark)
          expect(dataset.colorMode).toBe(expected.value)
          expect(dataset.colorPreference).toBe(expected.preference)
          expect(dataset.colorForced === 'true').toBe(expected.forced)
          expect(style.colorScheme).toBe(expected.value)
        })

  it('survives storage that throws (privacy mode)', () => {
    const dataset: Record<string, string> = {}
    runInNewContext(colorModeInlineScript(null), {
      document: { documentElement: { dataset, style: {} } },
      localStorage: {
        getItem() {
          throw new Error('denied')
        },
      },
      matchMedia: () => ({ matches: true }),
    })
    expect(dataset.colorMode).toBe('dark')
  })
})
