import { PHONE_ICON_PATH } from './phone-icon-path'

/** A handset glyph, decorative. */
export function PhoneIcon({ size = 18 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      fill="currentColor"
      className="phone-icon"
    >
      <path d={PHONE_ICON_PATH} />
    </svg>
  )
}
