import type { FieldName } from '../../schemas/generated/field'

/**
 * Form fields whose change cuts the leased number's expiry (spec point 4: name, email, phone,
 * address, insurance, vehicles, homeowner, credit, Medicare, Medicaid, zip).
 */
export const QUOTE_FIELDS: readonly FieldName[] = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'address',
  'currentlyInsured',
  'insuranceCompany',
  'vehicleAmount',
  'vehicleMake',
  'homeowner',
  'creditRating',
  'haveMedicare',
  'haveMedicaid',
  'zipcode',
]

export function touchesQuoteField(changed: readonly string[]): boolean {
  return changed.some((f) => (QUOTE_FIELDS as readonly string[]).includes(f))
}
