/**
 * Colour mode resolution (spec points 3 and 4): the visitor's preference (light/dark/system), the
 * value actually shown, whether it is still unknown, and whether the route forces it.
 */
import { COLOR_MODE_PREFERENCES } from '../constants'

export type ColorPreference = (typeof COLOR_MODE_PREFERENCES)[number]
export type ColorValue = 'light' | 'dark'

export interface ColorMode {
  preference: ColorPreference
  value: ColorValue
  /** True while the value cannot be known (server render of a `system` preference). */
  unknown: boolean
  /** True when the route forces the value and the preference is not applied. */
  forced: boolean
}

export interface ColorModeInput {
  /** What local storage holds (anything; invalid values count as `system`). */
  stored: string | null | undefined
  /** Whether the OS prefers a dark scheme; null when not known (server side). */
  systemDark: boolean | null
  /** The route's `colorMode`, if any. */
  routeForced?: string | null
  /** Called when the route tries to force `system` (refused, warning only). */
  warn?: (message: string) => void
}

export function isColorPreference(v: unknown): v is ColorPreference {
  return typeof v === 'string' && (COLOR_MODE_PREFERENCES as readonly string[]).includes(v)
}

/** A route may force light or dark; forcing `system` is refused with a warning and ignored. */
export function forcedValue(
  routeForced: string | null | undefined,
  warn?: (m: string) => void,
): ColorValue | null {
  if (routeForced === 'light' || routeForced === 'dark') return routeForced
  if (routeForced === 'system')
    warn?.('colorMode "system" cannot be forced on a route; the visitor preference applies')
  return null
}

export function resolveColorMode(input: ColorModeInput): ColorMode {
  const preference: ColorPreference = isColorPreference(input.stored) ? input.stored : 'system'
  const forced = forcedValue(input.routeForced, input.warn)
  if (forced) return { preference, value: forced, unknown: false, forced: true }
  if (preference !== 'system') return { preference, value: preference, unknown: false, forced: false }
  if (input.systemDark === null) return { preference, value: 'light', unknown: true, forced: false }
  return { preference, value: input.systemDark ? 'dark' : 'light', unknown: false, forced: false }
}
