/**
 * A definition's form, built from its JSON Schema and UI description through the one registry
 * (docs/decisions/0978). The schema is an input: the control center passes the bundled schema, a test
 * may pass a copy. Every property the schema holds shows: described ones where the description puts
 * them, others in the default tab with the widget their type implies (or as "edit in the Source tab"
 * when no widget fits). The server's errors (schema and cross-checks, by JSON pointer) land at their
 * field; errors no field shows are listed under the form.
 */
import { createElement, type ReactNode } from 'react'
import type { DefinitionError } from '../../../schemas/generated/cc-answers/common'
import { FieldErrors, FieldShell } from './Field'
import { domId, errorsAt, getAt, setAt, topKey, words } from './pointer'
import { REGISTRY } from './registry'
import { defaultWidget, propertyAt } from './schema'
import type { FieldIds, FieldRenderer, FormContext, JsonSchema, UiDescription, UiField } from './types'
import './forms.css'

type Doc = Record<string, unknown>

export interface SchemaFormProps {
  schema: JsonSchema
  ui: UiDescription
  /** The tab to draw (UiDescription tabs); all fields when absent. */
  tab?: string
  value: Doc
  onChange: (next: Doc) => void
  errors: DefinitionError[]
  readOnly?: boolean
  ctx?: FormContext
  /** The form's accessible name. */
  label: string
  testId?: string
  className?: string
  /** Drawn first inside the form. */
  children?: ReactNode
  /** Drawn after the fields. */
  footer?: ReactNode
  /** "Edit them in the Source tab" for properties the form does not edit. */
  onSource?: () => void
  /** The DOM id prefix, when one page shows several forms of a kind (default: the UI description's). */
  idPrefix?: string
  /** Enter in a field, or a submit button in `footer` (forms that save on demand, not by autosave). */
  onSubmit?: () => void
}

/** The fields of one tab: the described ones in order, then what the schema holds that nothing describes. */
export function formFields(schema: JsonSchema, ui: UiDescription, tab: string | undefined) {
  const described = new Set(ui.fields.map((f) => topKey(f.pointer)))
  const sourceOnly = { ...ui.sourceOnly }
  const auto: UiField[] = []
  for (const key of Object.keys(propertyAt(schema, '').schema.properties ?? {})) {
    if (described.has(key) || ui.omit?.includes(key) || key in sourceOnly) continue
    if (defaultWidget(propertyAt(schema, `/${key}`).schema)) auto.push({ pointer: `/${key}` })
    else sourceOnly[key] = ui.defaultTab
  }
  const inTab = (t: string | undefined) => tab === undefined || (t ?? ui.defaultTab) === tab
  const tabOf = (pointer: string) =>
    ui.fields.find((f) => topKey(f.pointer) === topKey(pointer))?.tab ??
    sourceOnly[topKey(pointer)] ??
    ui.defaultTab
  return {
    fields: [...ui.fields, ...auto].filter((f) => inTab(f.tab)),
    sourceOnly: Object.entries(sourceOnly)
      .filter(([, t]) => inTab(t))
      .map(([k]) => k),
    ownsError: (e: DefinitionError) => inTab(tabOf(e.pointer)),
  }
}

export function SchemaForm(props: SchemaFormProps) {
  const { schema, ui, tab, value, errors, ctx = {} } = props
  const { fields, sourceOnly, ownsError } = formFields(schema, ui, tab)
  const shown = new Set<DefinitionError>()
  const idFor = (pointer: string) => domId(props.idPrefix ?? ui.idPrefix, pointer)
  const claim = (pointer: string, exact = false) => {
    const errs = (exact ? errors.filter((e) => e.pointer === pointer) : errorsAt(errors, pointer)).filter(
      (e) => !shown.has(e),
    )
    for (const e of errs) shown.add(e)
    return errs
  }
  const field: FieldRenderer = (pointer, label, input, help, className) => {
    const errs = claim(pointer)
    const ids = idsFor(idFor(pointer), errs.length > 0)
    return (
      <FieldShell
        key={pointer}
        ids={ids}
        label={label}
        input={input(ids)}
        help={help}
        errors={errs}
        pointer={pointer}
        className={className}
      />
    )
  }
  const setPointer = (pointer: string, v: unknown) => props.onChange(setAt(value, pointer, v))
  const visible = fields.filter((f) => !f.when || f.when(value) || getAt(value, f.pointer) !== undefined)
  const body = sections(visible).map(({ legend, items }) => {
    const help = legend === undefined ? undefined : ui.sectionHelp?.[legend]
    const drawn = items.map((f) => drawField(f, { ...props, ctx }, { field, claim, idFor, setPointer }))
    return legend === undefined ? (
      drawn
    ) : (
      <fieldset key={`section-${legend}`} className="fw-form-section">
        <legend>{legend}</legend>
        {help && <p className="muted fw-form-section-help">{help}</p>}
        {drawn}
      </fieldset>
    )
  })
  const present = sourceOnly.filter((k) => value[k] !== undefined)
  const rest = errors.filter((e) => !shown.has(e) && ownsError(e))
  return (
    <form
      className={`stack fw-schema-form${props.className ? ` ${props.className}` : ''}`}
      aria-label={props.label}
      onSubmit={(e) => {
        e.preventDefault()
        props.onSubmit?.()
      }}
      data-testid={props.testId}
    >
      {props.children}
      {body}
      {props.footer}
      {present.length > 0 && (
        <p className="muted">
          Also set here: {present.join(', ')} —{' '}
          {props.onSource ? (
            <button type="button" className="cc-link-button" onClick={props.onSource}>
              edit them in the Source tab
            </button>
          ) : (
            'edit them in the Source tab'
          )}
          .
        </p>
      )}
      {rest.length > 0 && (
        <section aria-label="Other errors" className="fw-form-other-errors">
          <FieldErrors id={idFor('/other-errors')} errors={rest} pointer="" />
        </section>
      )}
    </form>
  )
}

/** Consecutive fields of one `section` together. */
function sections(fields: UiField[]) {
  const out: { legend?: string; items: UiField[] }[] = []
  for (const f of fields) {
    const last = out[out.length - 1]
    if (last && f.section !== undefined && last.legend === f.section) last.items.push(f)
    else out.push({ legend: f.section, items: [f] })
  }
  return out
}

const idsFor = (id: string, invalid: boolean): FieldIds => ({
  id,
  describedBy: `${id}-help ${id}-err`,
  invalid,
})

interface Drawing {
  field: FieldRenderer
  claim: (pointer: string, exact?: boolean) => DefinitionError[]
  idFor: (pointer: string) => string
  setPointer: (pointer: string, v: unknown) => void
}

/** One field through the registry: the widget the description names, else the one the schema implies. */
function drawField(f: UiField, props: SchemaFormProps & { ctx: FormContext }, d: Drawing): ReactNode {
  const { schema, required } = propertyAt(props.schema, f.pointer)
  const name = f.widget ?? defaultWidget(schema) ?? 'text'
  const entry = REGISTRY[name]
  // A schema `title` names a type (Slug, CallToAction), not the field: the property's name does.
  const label = f.label ?? words(f.pointer.split('/').pop() ?? '')
  const value = getAt(props.value, f.pointer)
  const onChange = (v: unknown) =>
    d.setPointer(
      f.pointer,
      !required && !f.literal && (v === '' || (Array.isArray(v) && v.length === 0)) ? undefined : v,
    )
  const widgetProps = (ids: FieldIds, errors: DefinitionError[]) => ({
    ...ids,
    pointer: f.pointer,
    value,
    schema,
    required,
    ui: f,
    label,
    readOnly: props.readOnly === true || f.readOnly === true,
    onChange,
    doc: props.value,
    setAt: d.setPointer,
    ctx: props.ctx,
    errors,
    field: d.field,
    idFor: d.idFor,
  })
  const after = f.after?.(props.value, props.ctx)
  if (entry.group) {
    const ids = idsFor(d.idFor(f.pointer), false)
    // The group's own errors only: its parts claim theirs as they draw; what none draws is listed below.
    const own = d.claim(f.pointer, true)
    return (
      <div key={f.pointer} className="fw-form-group" data-pointer={f.pointer}>
        {entry.component(widgetProps(ids, own))}
        {after}
      </div>
    )
  }
  const errs = d.claim(f.pointer)
  // An instant browser check shows until the server's answer speaks for the field.
  const local = errs.length ? null : f.check?.(props.value)
  const ids = idsFor(d.idFor(f.pointer), errs.length > 0 || !!local)
  const help = (
    <>
      {f.help}
      {f.help && !f.helpOnly && schema.description ? ' ' : null}
      {f.helpOnly ? null : schema.description}
    </>
  )
  return (
    <div key={f.pointer} className="fw-form-slot">
      <FieldShell
        ids={ids}
        label={label}
        input={createElement(entry.component, widgetProps(ids, errs))}
        help={help}
        errors={
          local
            ? [{ file: '', line: 0, pointer: f.pointer, message: local } as DefinitionError, ...errs]
            : errs
        }
        pointer={f.pointer}
        className={f.className}
        hideLabel={f.hideLabel}
        inline={entry.inline}
      />
      {after}
    </div>
  )
}
