import type { FieldProps } from './field-props'

/** The hint and the human error message under a field. */
export function FieldMessages({ field, id, error }: Pick<FieldProps, 'field' | 'id' | 'error'>) {
  return (
    <>
      {field.hint && (
        <p id={`${id}-hint`} className="field-hint">
          {field.hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </>
  )
}
