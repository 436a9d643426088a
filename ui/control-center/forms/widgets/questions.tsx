/** A step's questions (`fields`, field.schema.json): label, answer, kind and hint per question. */
import fieldSchema from '../../../../schemas/field.schema.json'
import type { Field } from '../../../../schemas/generated/funnel'
import { FieldErrors, FieldInput } from '../Field'
import type { WidgetProps } from '../types'
import { FIELD_NAMES } from './action-words'

const KINDS = (fieldSchema as { properties: { kind: { enum: Field['kind'][] } } }).properties.kind.enum

export function QuestionsWidget(p: WidgetProps) {
  const fields = (Array.isArray(p.value) ? p.value : []) as Field[]
  const put = (i: number, f: Field) => p.onChange(fields.map((x, j) => (j === i ? f : x)))
  return (
    <fieldset className={`pf-group fw-form-questions${p.ui.className ? ` ${p.ui.className}` : ''}`}>
      <legend>{p.label}</legend>
      <ol className="fw-field-list">
        {fields.map((f, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a question's place in the step is its identity
          <li key={`${f.name}:${i}`} className="fw-field-row">
            {p.field(`${p.pointer}/${i}/label`, 'Label', (ids) => (
              <FieldInput
                field={ids}
                value={f.label}
                readOnly={p.readOnly}
                onChange={(e) => put(i, { ...f, label: e.target.value })}
              />
            ))}
            {p.field(`${p.pointer}/${i}/name`, 'Answer', (ids) => (
              <select
                id={ids.id}
                aria-describedby={ids.describedBy}
                aria-invalid={ids.invalid || undefined}
                value={f.name}
                disabled={p.readOnly}
                onChange={(e) => put(i, { ...f, name: e.target.value as Field['name'] })}
              >
                {FIELD_NAMES.map((n) => (
                  <option key={n}>{n}</option>
                ))}
              </select>
            ))}
            {p.field(`${p.pointer}/${i}/kind`, 'Kind', (ids) => (
              <select
                id={ids.id}
                aria-describedby={ids.describedBy}
                aria-invalid={ids.invalid || undefined}
                value={f.kind}
                disabled={p.readOnly}
                onChange={(e) => put(i, { ...f, kind: e.target.value as Field['kind'] })}
              >
                {KINDS.map((k) => (
                  <option key={k}>{k}</option>
                ))}
              </select>
            ))}
            {p.field(`${p.pointer}/${i}/hint`, 'Hint', (ids) => (
              <FieldInput
                field={ids}
                value={f.hint ?? ''}
                readOnly={p.readOnly}
                onChange={(e) => {
                  const { hint: _, ...rest } = f
                  put(i, e.target.value ? { ...rest, hint: e.target.value } : rest)
                }}
              />
            ))}
          </li>
        ))}
      </ol>
      <p className="muted">Options, limits and placeholders: the Source tab.</p>
      <FieldErrors id={`${p.id}-err`} errors={p.errors} pointer={p.pointer} />
    </fieldset>
  )
}
