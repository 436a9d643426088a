/**
 * Colour mode in the browser. The inline head script (engine/color-mode/inline-script.ts) has already
 * applied the mode before first paint; this keeps it in step afterwards: a new choice, the OS scheme
 * changing while the preference is `system`, and choices made in another tab.
 */
import { useSyncExternalStore } from 'react'
import {
  type ColorMode,
  type ColorPreference,
  resolveColorMode,
} from '../../engine/color-mode/resolve-color-mode'
import { COLOR_MODE_STORAGE_KEY } from '../../engine/constants'

const DARK_QUERY = '(prefers-color-scheme: dark)'
const listeners = new Set<() => void>()
let current: ColorMode | null = null
let routeForced: string | null = null
let started = false

function readStored(): string | null {
  try {
    return localStorage.getItem(COLOR_MODE_STORAGE_KEY)
  } catch {
    return null
  }
}

function compute(warn?: (m: string) => void): ColorMode {
  return resolveColorMode({
    stored: readStored(),
    systemDark: matchMedia(DARK_QUERY).matches,
    routeForced,
    warn,
  })
}

function apply(mode: ColorMode): void {
  const d = document.documentElement
  d.dataset.colorMode = mode.value
  d.dataset.colorPreference = mode.preference
  if (mode.forced) d.dataset.colorForced = 'true'
  else delete d.dataset.colorForced
  d.style.colorScheme = mode.value
  const changed =
    !current ||
    current.value !== mode.value ||
    current.preference !== mode.preference ||
    current.forced !== mode.forced
  current = mode
  if (changed) for (const l of listeners) l()
}

/** Starts following the OS scheme and other tabs. `forced` is the route's `colorMode`. */
export function startColorMode(forced: string | null | undefined): void {
  routeForced = forced ?? null
  apply(compute((m) => console.warn(m)))
  if (started) return
  started = true
  matchMedia(DARK_QUERY).addEventListener('change', () => apply(compute()))
  addEventListener('storage', (e) => {
    if (e.key === COLOR_MODE_STORAGE_KEY) apply(compute())
  })
}

/** Keeps the visitor's choice in local storage and applies it at once. */
export function setColorPreference(preference: ColorPreference): void {
  try {
    localStorage.setItem(COLOR_MODE_STORAGE_KEY, preference)
  } catch {
    // Storage refused (privacy mode): the choice still applies to this page.
  }
  apply(resolveColorMode({ stored: preference, systemDark: matchMedia(DARK_QUERY).matches, routeForced }))
}

const SERVER_MODE: ColorMode = { preference: 'system', value: 'light', unknown: true, forced: false }

function subscribe(l: () => void) {
  listeners.add(l)
  return () => listeners.delete(l)
}

/** The colour mode; `unknown` during server render and hydration. */
export function useColorMode(): ColorMode {
  return useSyncExternalStore(
    subscribe,
    () => current ?? SERVER_MODE,
    () => SERVER_MODE,
  )
}
