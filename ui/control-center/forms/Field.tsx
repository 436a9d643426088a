import type { InputHTMLAttributes, ReactNode } from 'react'
import type { DefinitionError } from '../../../schemas/generated/cc-answers/common'
import type { FieldIds } from './types'

export type { FieldIds } from './types'

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

/** A field's errors: the server's messages (schema and cross-checks) at this pointer. */
export function FieldErrors({
  id,
  errors,
  pointer,
}: {
  id: string
  errors: DefinitionError[]
  /** The field's own pointer: errors deeper inside name their pointer. */
  pointer?: string
}) {
  return (
    <ul id={id} className="fw-field-errors" data-testid="field-errors">
      {errors.map((e) => (
        <li key={`${e.pointer}:${e.message}`} className="cc-form-error">
          {pointer !== undefined && e.pointer !== pointer && <code>{e.pointer || '/'}</code>} {e.message}
        </li>
      ))}
    </ul>
  )
}

/** "n/max characters", and how many too many. */
export function Counter({ n, max }: { n: number; max: number }) {
  return (
    <span className={n > max ? 'cc-form-error' : 'muted'} data-testid="counter">
      {n}/{max} characters{n > max ? `: ${n - max} too many` : ''}
    </span>
  )
}

/** One labelled field: label, input, help, errors. */
export function FieldShell({
  ids,
  label,
  input,
  help,
  errors,
  pointer,
  className,
  hideLabel,
  inline,
}: {
  ids: FieldIds
  label: string
  input: ReactNode
  help?: ReactNode
  errors: DefinitionError[]
  pointer: string
  className?: string
  hideLabel?: boolean
  /** A checkbox: the input, then its label, on one row. */
  inline?: boolean
}) {
  const labelled = (
    <label htmlFor={ids.id} className={hideLabel ? 'cc-visually-hidden' : undefined}>
      {label}
    </label>
  )
  return (
    <div className={`cc-field fw-form-field${className ? ` ${className}` : ''}`} data-pointer={pointer}>
      {inline ? (
        <div className="fw-form-check">
          {input}
          {labelled}
        </div>
      ) : (
        <>
          {labelled}
          {input}
        </>
      )}
      <small id={`${ids.id}-help`} className="muted">
        {help}
      </small>
      <FieldErrors id={`${ids.id}-err`} errors={errors} pointer={pointer} />
    </div>
  )
}
