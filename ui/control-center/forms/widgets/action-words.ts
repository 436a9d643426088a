/** The action builder's vocabulary: action types and conditions in words, and how a row changes type. */
import fieldSchema from '../../../../schemas/field.schema.json'
import type { FieldName, SingleAction } from '../../../../schemas/generated/action'

/** The 14 form values a condition or set-field may name (field.schema.json's FieldName). */
export const FIELD_NAMES = (fieldSchema as { $defs: { FieldName: { enum: FieldName[] } } }).$defs.FieldName
  .enum

export const ACTION_TYPES: { type: SingleAction['type']; label: string }[] = [
  { type: 'go-to-step', label: 'go to step' },
  { type: 'go-to-page', label: 'go to page' },
  { type: 'finish', label: 'finish' },
  { type: 'stay', label: 'stay on this step' },
  { type: 'set-field', label: 'set the answer' },
  { type: 'track', label: 'track an event' },
  { type: 'demand-check', label: 'ask for demand' },
]

export type When = 'always' | 'answer-equals' | 'answer-in' | 'low-bid' | 'not-low-bid' | 'complex'
export const WHEN_LABELS: { id: When; label: string }[] = [
  { id: 'always', label: 'Always' },
  { id: 'answer-equals', label: 'If an answer is' },
  { id: 'answer-in', label: 'If an answer is one of' },
  { id: 'low-bid', label: 'If the bid is low' },
  { id: 'not-low-bid', label: 'If the bid is not low' },
]

export const whenOf = (a: SingleAction): When => {
  const c = 'when' in a ? a.when : undefined
  if (!c) return 'always'
  if (
    c.type === 'answer-equals' ||
    c.type === 'answer-in' ||
    c.type === 'low-bid' ||
    c.type === 'not-low-bid'
  )
    return c.type
  return 'complex'
}

/** A value typed for a field: yes/no become booleans for yes-no fields, the rest stays text. */
export const typed = (raw: string, kind: string | undefined): string | boolean =>
  kind === 'yes-no' ? raw === 'yes' : raw
export const shown = (v: unknown) => (v === true ? 'yes' : v === false ? 'no' : String(v ?? ''))

/** A new action of a type, keeping the condition of the one it replaces. */
export function retype(a: SingleAction, type: SingleAction['type'], stepNames: string[]): SingleAction {
  const when = 'when' in a && a.when ? { when: a.when } : {}
  switch (type) {
    case 'go-to-step':
      return { type, step: stepNames[0] ?? '', ...when }
    case 'go-to-page':
      return { type, path: '/', ...when }
    case 'set-field':
      return { type, field: 'phone', value: '', ...when }
    case 'track':
      return { type, event: 'customEvent', ...when }
    case 'demand-check':
      return { type }
    default:
      return { type, ...when }
  }
}
