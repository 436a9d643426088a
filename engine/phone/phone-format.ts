/** The three forms of a phone number the page shows (spec point 4). */
export interface PhoneDisplay {
  /** Digits only, country code first: 18885550101. */
  raw: string
  /** `tel:` link with the country code: tel:+18885550101. */
  href: string
  /** First digit the country code, then groups of 3, 3 and the rest: 1-888-555-0101. */
  dashed: string
}

/** Digits of a phone value as it arrives (+1 (888) 555-0101, 1-888-555-0101, 18885550101…). */
export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '')
}

/** Dash format: country-code digit, then 3, 3 and the rest. Shorter inputs keep the groups they fill. */
export function formatPhoneDashed(value: string): string {
  const d = phoneDigits(value)
  const groups = [d.slice(0, 1), d.slice(1, 4), d.slice(4, 7), d.slice(7)]
  return groups.filter(Boolean).join('-')
}

export function phoneDisplay(value: string): PhoneDisplay {
  const raw = phoneDigits(value)
  return { raw, href: `tel:+${raw}`, dashed: formatPhoneDashed(raw) }
}
