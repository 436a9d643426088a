/**
 * Masks a phone number as it is typed: "5551234567" → "(555) 123-4567" (spec point 5's format).
 * A leading country code 1 is dropped, since visitors often type it; extra digits are ignored.
 */
export function maskPhone(input: string): string {
  let digits = input.replace(/\D/g, '')
  if (digits.length > 10 && digits.startsWith('1')) digits = digits.slice(1)
  digits = digits.slice(0, 10)
  if (digits.length === 0) return ''
  if (digits.length < 4) return `(${digits}`
  if (digits.length < 7) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`
}
