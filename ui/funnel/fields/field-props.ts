import type { Field } from '../../../schemas/generated/field'
import type { FunnelUiText } from '../../../schemas/generated/ui-text'

export interface FieldProps {
  field: Field
  /** Id prefix for the input, its hint and its error. */
  id: string
  value: string | boolean | undefined
  error: string | undefined
  /** The funnel's words in its language (the Yes and No of a yes-no question). */
  text: FunnelUiText
  /**
   * Single-question steps answer with one tap: the choices are submit buttons, so choosing posts
   * `name=value` (docs/decisions/0216, 0524).
   */
  submits?: boolean
}

/** aria-describedby for a field: its hint and its error, when present. */
export function describedBy(p: FieldProps): string | undefined {
  const ids = [p.field.hint ? `${p.id}-hint` : '', p.error ? `${p.id}-error` : ''].filter(Boolean)
  return ids.length ? ids.join(' ') : undefined
}
