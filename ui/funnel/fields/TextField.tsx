import { maskPhone } from '../../../engine/funnel/phone-mask'
import { inputAttributes } from '../field-attributes'
import { FieldMessages } from './FieldMessages'
import { describedBy, type FieldProps } from './field-props'

/** Text, e-mail, phone (masked as typed), ZIP and number inputs. */
export function TextField(props: FieldProps) {
  const { field, id, value, error, onChange } = props
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
        value={typeof value === 'string' ? value : ''}
        required={field.required !== false}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(props)}
        onChange={(e) => {
          const v = e.currentTarget.value
          if (field.kind === 'tel') onChange(maskPhone(v))
          else if (field.kind === 'zip') onChange(v.replace(/\D/g, '').slice(0, 5))
          else onChange(v)
        }}
      />
      <FieldMessages field={field} id={id} error={error} />
    </div>
  )
}
