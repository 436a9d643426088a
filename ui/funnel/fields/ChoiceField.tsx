import { FieldMessages } from './FieldMessages'
import { describedBy, type FieldProps } from './field-props'

/**
 * Yes/no and choice questions as large toggle buttons in a fieldset: one tap answers. Buttons, not
 * radios, because on a single-question step choosing submits, and radios change on arrow keys.
 */
export function ChoiceField(props: FieldProps) {
  const { field, id, value, error, submits, text } = props
  const options: { value: string | boolean; label: string }[] =
    field.kind === 'yes-no'
      ? [
          { value: true, label: text.yes },
          { value: false, label: text.no },
        ]
      : (field.options ?? [])
  return (
    <fieldset
      className={error ? 'field field-invalid' : 'field'}
      aria-describedby={describedBy(props)}
      aria-invalid={error ? true : undefined}
    >
      <legend className={submits ? 'field-label visually-hidden' : 'field-label'}>{field.label}</legend>
      <div className={field.kind === 'yes-no' ? 'choices choices-yes-no' : 'choices'}>
        {options.map((o, i) => {
          const checked = value === o.value
          return (
            <button
              key={String(o.value)}
              id={i === 0 ? id : undefined}
              // On a one-question step choosing submits the form (posts name=value); elsewhere the form
              // island keeps the choice in a hidden input (ui/islands/funnel-form-island.ts).
              type={submits ? 'submit' : 'button'}
              name={field.name}
              value={String(o.value)}
              aria-pressed={checked}
              className={checked ? 'choice choice-checked' : 'choice'}
            >
              {o.label}
            </button>
          )
        })}
      </div>
      <FieldMessages field={field} id={id} error={error} />
    </fieldset>
  )
}
