import { type InputHTMLAttributes, useState } from 'react'
import { SWITCH_DEFAULT_VALUE } from '../../engine/constants'
import './primitives.css'

export interface SwitchProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'role' | 'onChange'> {
  label: string
  onCheckedChange?: (checked: boolean) => void
}

/**
 * Switch (spec point 4/9): checked or unchecked. A native checkbox with role="switch", so it works in a
 * native form post before hydration, posting its value ('on' by default) only when checked.
 */
export function Switch({
  label,
  value = SWITCH_DEFAULT_VALUE,
  checked,
  defaultChecked,
  onCheckedChange,
  ...rest
}: SwitchProps) {
  const [inner, setInner] = useState(Boolean(defaultChecked))
  const isOn = checked ?? inner
  return (
    <label className="switch">
      <input
        {...rest}
        type="checkbox"
        role="switch"
        value={value}
        checked={checked}
        defaultChecked={checked === undefined ? defaultChecked : undefined}
        aria-checked={isOn}
        data-state={isOn ? 'checked' : 'unchecked'}
        onChange={(e) => {
          setInner(e.target.checked)
          onCheckedChange?.(e.target.checked)
        }}
      />
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      <span className="switch-label">{label}</span>
    </label>
  )
}
