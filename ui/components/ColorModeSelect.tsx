import type { ColorMode } from '../../engine/color-mode/resolve-color-mode'
import { isColorPreference } from '../../engine/color-mode/resolve-color-mode'
import { useRuntime } from '../runtime/runtime-context'
import { useStore } from '../runtime/use-store'

const SERVER_MODE: ColorMode = { preference: 'system', value: 'light', unknown: true, forced: false }

/** The visitor's colour theme choice (kept in local storage); disabled when the page forces one. */
export function ColorModeSelect({ es }: { es: boolean }) {
  const runtime = useRuntime()
  // `unknown` during server render and hydration.
  const mode = useStore(runtime?.colorMode, null) ?? SERVER_MODE
  return (
    <label className="color-mode-select">
      <span>{es ? 'Tema' : 'Theme'}</span>
      <select
        value={mode.preference}
        disabled={mode.forced}
        data-testid="color-mode-select"
        data-island="color-mode"
        onChange={(e) => {
          if (isColorPreference(e.target.value)) runtime?.colorMode.choose(e.target.value)
        }}
      >
        <option value="system">{es ? 'Sistema' : 'System'}</option>
        <option value="light">{es ? 'Claro' : 'Light'}</option>
        <option value="dark">{es ? 'Oscuro' : 'Dark'}</option>
      </select>
    </label>
  )
}
