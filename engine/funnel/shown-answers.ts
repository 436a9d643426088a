/**
 * What a rendered funnel step is given of the answers the server holds (docs/decisions/0230, 0232):
 * the shown step's own fields only — the page needs nothing else, the server keeps the rest — and no
 * contact detail (name, e-mail, phone, address) for a browser that came through a resume link and
 * has not posted a step yet: those fields are asked again there.
 */
import { CONTACT_FIELD_NAMES } from '../constants'
import type { FormValues } from '../runtime-contracts'
import type { ResolvedStep } from '../snapshot/types'

const CONTACT = new Set<string>(CONTACT_FIELD_NAMES)

export function shownAnswers(step: ResolvedStep, values: FormValues, contactHidden: boolean): FormValues {
  const shown: FormValues = {}
  for (const f of step.fields) {
    const value = values[f.name]
    if (value === undefined || (contactHidden && CONTACT.has(f.name))) continue
    shown[f.name] = value
  }
  return shown
}

/** Every answer but the contact details (the answer sync's reply to a browser that must not see them). */
export function withoutContact(values: FormValues): FormValues {
  return Object.fromEntries(Object.entries(values).filter(([k]) => !CONTACT.has(k))) as FormValues
}
