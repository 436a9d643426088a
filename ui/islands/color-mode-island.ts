import { isColorPreference } from '../../engine/color-mode/resolve-color-mode'
import type { ColorModeControl } from '../runtime/color-mode'

/** The footer's colour-mode select (ColorModeSelect.tsx), kept in step with the runtime's colour mode. */
export function mountColorMode(select: HTMLSelectElement, colorMode: ColorModeControl): void {
  const show = () => {
    const mode = colorMode.get()
    if (!mode) return
    select.value = mode.preference
    select.disabled = mode.forced
  }
  show()
  colorMode.subscribe(show)
  select.addEventListener('change', () => {
    if (isColorPreference(select.value)) colorMode.choose(select.value)
  })
}
