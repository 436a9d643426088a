import type { InputHTMLAttributes } from 'react'

/** What a form's field builder hands its input: the input's id, its help and error ids, whether it is invalid. */
export interface FieldIds {
  id: string
  describedBy: string
  invalid: boolean
}

/** An input wired to its field's label, help and errors (id, aria-describedby, aria-invalid). */
export function FieldInput({
  field,
  ...rest
}: { field: FieldIds } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id'>) {
  return (
    <input
      id={field.id}
      aria-describedby={field.describedBy}
      aria-invalid={field.invalid || undefined}
      {...rest}
    />
  )
}
