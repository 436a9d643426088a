/** The registry's field widgets: one input each, inside the form's label/help/error shell. */
import { useState } from 'react'
import { formatPhoneDashed } from '../../../../engine/phone/phone-format'
import { Counter, FieldInput } from '../Field'
import type { Choice, WidgetProps } from '../types'

const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v))
const aria = (p: WidgetProps) => ({
  id: p.id,
  'aria-describedby': p.describedBy,
  'aria-invalid': p.invalid || undefined,
})

export function TextWidget(p: WidgetProps) {
  return (
    <>
      <FieldInput
        field={p}
        value={str(p.value ?? p.ui.fallback)}
        placeholder={p.ui.placeholder}
        readOnly={p.readOnly}
        onChange={(e) => p.onChange(e.target.value)}
        {...p.ui.attrs}
      />
      {p.ui.counter && p.schema.maxLength ? (
        <Counter n={str(p.value).length} max={p.schema.maxLength} />
      ) : null}
    </>
  )
}

/** A textarea, with a character count when the schema sets `maxLength`. */
export function LongTextWidget(p: WidgetProps) {
  const value = str(p.value)
  return (
    <>
      <textarea
        {...aria(p)}
        rows={p.ui.rows ?? 3}
        value={value}
        placeholder={p.ui.placeholder}
        readOnly={p.readOnly}
        onChange={(e) => p.onChange(e.target.value)}
      />
      {p.schema.maxLength ? <Counter n={value.length} max={p.schema.maxLength} /> : null}
    </>
  )
}

export function NumberWidget(p: WidgetProps) {
  return (
    <FieldInput
      field={p}
      type="number"
      min={p.schema.minimum}
      max={p.schema.maximum}
      value={typeof p.value === 'number' ? p.value : ''}
      readOnly={p.readOnly}
      onChange={(e) => p.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
    />
  )
}

export function DateWidget(p: WidgetProps) {
  return (
    <FieldInput
      field={p}
      type="date"
      value={str(p.value)}
      readOnly={p.readOnly}
      onChange={(e) => p.onChange(e.target.value)}
    />
  )
}

function Select(p: WidgetProps & { choices: Choice[] | null | undefined }) {
  const value = str(p.value)
  const choices = (p.choices ?? []).filter((c) => !p.ui.exclude?.includes(c.value) || c.value === value)
  const allowNone = p.ui.allowNone ?? !p.required
  return (
    <select
      {...aria(p)}
      value={value}
      disabled={p.readOnly || p.choices === null}
      onChange={(e) => p.onChange(e.target.value || undefined)}
    >
      {allowNone && <option value="">{p.choices === null ? 'Loading…' : '(not set)'}</option>}
      {value && !choices.some((c) => c.value === value) && <option value={value}>{value}</option>}
      {!allowNone && !value && <option value="">(none)</option>}
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </select>
  )
}

/** The schema's `enum` as a select. */
export function EnumWidget(p: WidgetProps) {
  return (
    <Select {...p} choices={(p.schema.enum ?? []).map((v) => ({ value: String(v), label: String(v) }))} />
  )
}

/** A reference to another definition (funnel, brand, author…), picked from the form's lists. */
export function ReferenceWidget(p: WidgetProps) {
  return <Select {...p} choices={p.ctx.refs?.[p.ui.ref ?? '']} />
}

/** Several references, as checkboxes (a page's brands). */
export function ReferenceSetWidget(p: WidgetProps) {
  const now = Array.isArray(p.value) ? (p.value as string[]) : []
  return (
    <fieldset id={p.id} className="pf-brands" aria-describedby={p.describedBy} tabIndex={-1}>
      <legend className="cc-visually-hidden">{p.label}</legend>
      {(p.ctx.refs?.[p.ui.ref ?? ''] ?? []).map((c) => (
        <label key={c.value} className="cc-check">
          <input
            type="checkbox"
            disabled={p.readOnly}
            checked={now.includes(c.value)}
            onChange={(e) =>
              p.onChange(e.target.checked ? [...now, c.value] : now.filter((x) => x !== c.value))
            }
          />
          {c.label} <span className="muted">({c.value})</span>
        </label>
      ))}
    </fieldset>
  )
}

/** A checkbox; a value equal to the schema's default is left out of the document. */
export function BooleanWidget(p: WidgetProps) {
  const fallback = (p.ui.fallback ?? p.schema.default ?? false) as boolean
  return (
    <FieldInput
      field={p}
      type="checkbox"
      className="pf-check"
      checked={typeof p.value === 'boolean' ? p.value : fallback}
      disabled={p.readOnly}
      onChange={(e) =>
        p.onChange(e.target.checked === fallback && !p.ui.literal ? undefined : e.target.checked)
      }
    />
  )
}

/** A list of strings, one per line. */
export function LinesWidget(p: WidgetProps) {
  const list = Array.isArray(p.value) ? (p.value as string[]) : []
  return (
    <textarea
      {...aria(p)}
      rows={Math.max(2, list.length + 1)}
      value={list.join('\n')}
      readOnly={p.readOnly}
      onChange={(e) =>
        p.onChange(e.target.value.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1))
      }
    />
  )
}

const splitList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)

/** A list of strings, comma-separated, kept as typed while it means the same list; `ref` offers values. */
export function CommaListWidget(p: WidgetProps) {
  const list = Array.isArray(p.value) ? (p.value as string[]) : []
  const [typed, setTyped] = useState<string | null>(null)
  const shown = typed !== null && splitList(typed).join(', ') === list.join(', ') ? typed : list.join(', ')
  const options = p.ui.ref ? p.ctx.refs?.[p.ui.ref] : undefined
  return (
    <>
      <input
        {...aria(p)}
        value={shown}
        readOnly={p.readOnly}
        list={options ? `${p.id}-options` : undefined}
        onChange={(e) => {
          setTyped(e.target.value)
          const items = splitList(e.target.value)
          p.onChange(items.length ? items : undefined)
        }}
      />
      {options && (
        <datalist id={`${p.id}-options`}>
          {options.map((o) => (
            <option key={o.value} value={o.value} />
          ))}
        </datalist>
      )}
    </>
  )
}

/** A phone number as stored (1 and ten digits), with the number visitors see. */
export function PhoneWidget(p: WidgetProps) {
  return (
    <>
      <FieldInput
        field={p}
        value={str(p.value)}
        readOnly={p.readOnly}
        inputMode="tel"
        autoComplete="off"
        onChange={(e) => p.onChange(e.target.value)}
      />
      <span className="fw-pr-shows">
        Visitors see <strong>{formatPhoneDashed(str(p.value)) || '—'}</strong>.
      </span>
    </>
  )
}
