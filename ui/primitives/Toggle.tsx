import { type ButtonHTMLAttributes, useState } from 'react'
import './primitives.css'

export interface ToggleProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onChange'> {
  pressed?: boolean
  defaultPressed?: boolean
  onPressedChange?: (pressed: boolean) => void
}

/** Toggle (spec point 4): a button that is on or off, announced with aria-pressed. */
export function Toggle({
  pressed,
  defaultPressed = false,
  onPressedChange,
  onClick,
  children,
  ...rest
}: ToggleProps) {
  const [inner, setInner] = useState(defaultPressed)
  const on = pressed ?? inner
  return (
    <button
      type="button"
      {...rest}
      className={`toggle ${rest.className ?? ''}`.trim()}
      aria-pressed={on}
      data-state={on ? 'on' : 'off'}
      onClick={(e) => {
        onClick?.(e)
        if (e.defaultPrevented) return
        setInner(!on)
        onPressedChange?.(!on)
      }}
    >
      {children}
    </button>
  )
}
