import { inputAttributes } from '../field-attributes'
import { FieldMessages } from './FieldMessages'
import { describedBy, type FieldProps } from './field-props'

/**
 * Text, e-mail, phone, ZIP and number inputs, with the answer the server holds. The phone mask and
 * as-you-type checks are the form island's (ui/islands/funnel-form-island.ts).
 */
export function TextField(props: FieldProps) {
  const { field, id, value, error } = props
  const attrs = inputAttributes(field)
  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      <label htmlFor={id} className="field-label">
        {field.label}
        {field.required === false && <span className="field-optional"> (optional)</span>}
      </label>
      <input
        id={id}
        name={field.name}
        className="field-input"
        {...attrs}
        placeholder={field.placeholder}
        defaultValue={typeof value === 'string' ? value : undefined}
        required={field.required !== false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(props)}
      />
      <FieldMessages field={field} id={id} error={error} />
    </div>
  )
}
