/**
 * Colour mode in the browser. The inline head script (engine/color-mode/inline-script.ts) has already
 * applied the mode before first paint; this keeps it in step afterwards: a new choice, the OS scheme
 * changing while the preference is `system`, and choices made in another tab.
 */
import {
  type ColorMode,
  type ColorPreference,
  resolveColorMode,
} from '../../engine/color-mode/resolve-color-mode'
import { COLOR_MODE_STORAGE_KEY } from '../../engine/constants'
import { createStore, type Store } from './store'

const DARK_QUERY = '(prefers-color-scheme: dark)'

export interface ColorModeControl extends Store<ColorMode | null> {
  /** Keeps the visitor's choice in local storage and applies it at once. */
  choose(preference: ColorPreference): void
}

function readStored(): string | null {
  try {
    return localStorage.getItem(COLOR_MODE_STORAGE_KEY)
  } catch {
    return null
  }
}

function sameMode(a: ColorMode | null, b: ColorMode): boolean {
  return !!a && a.value === b.value && a.preference === b.preference && a.forced === b.forced
}

/** Starts following the OS scheme and other tabs. `forced` is the route's `colorMode`. */
export function startColorMode(forced: string | null | undefined): ColorModeControl {
  const routeForced = forced ?? null
  const store = createStore<ColorMode | null>(null)
  const apply = (mode: ColorMode) => {
    const d = document.documentElement
    d.dataset.colorMode = mode.value
    d.dataset.colorPreference = mode.preference
    if (mode.forced) d.dataset.colorForced = 'true'
    else delete d.dataset.colorForced
    d.style.colorScheme = mode.value
    if (!sameMode(store.get(), mode)) store.set(mode)
  }
  const compute = (warn?: (m: string) => void) =>
    resolveColorMode({ stored: readStored(), systemDark: matchMedia(DARK_QUERY).matches, routeForced, warn })
  apply(compute((m) => console.warn(m)))
  matchMedia(DARK_QUERY).addEventListener('change', () => apply(compute()))
  addEventListener('storage', (e) => {
    if (e.key === COLOR_MODE_STORAGE_KEY) apply(compute())
  })
  return {
    get: store.get,
    subscribe: store.subscribe,
    choose(preference) {
      try {
        localStorage.setItem(COLOR_MODE_STORAGE_KEY, preference)
      } catch {
        // Storage refused (privacy mode): the choice still applies to this page.
      }
      apply(resolveColorMode({ stored: preference, systemDark: matchMedia(DARK_QUERY).matches, routeForced }))
    },
  }
}
