import { isColorPreference } from '../../engine/color-mode/resolve-color-mode'
import { setColorPreference, useColorMode } from '../runtime/color-mode'

/** The visitor's colour theme choice (kept in local storage); disabled when the page forces one. */
export function ColorModeSelect({ es }: { es: boolean }) {
  const mode = useColorMode()
  return (
    <label className="color-mode-select">
      <span>{es ? 'Tema' : 'Theme'}</span>
      <select
        value={mode.preference}
        disabled={mode.forced}
        data-testid="color-mode-select"
        onChange={(e) => {
          if (isColorPreference(e.target.value)) setColorPreference(e.target.value)
        }}
      >
        <option value="system">{es ? 'Sistema' : 'System'}</option>
        <option value="light">{es ? 'Claro' : 'Light'}</option>
        <option value="dark">{es ? 'Oscuro' : 'Dark'}</option>
      </select>
    </label>
  )
}
