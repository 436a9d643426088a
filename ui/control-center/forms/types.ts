/**
 * The form builder's vocabulary (the JSON Forms idea, docs/decisions/0978): a definition kind's JSON
 * Schema says what a document holds; a small UI description says where each field shows (tab, order,
 * template), with which widget and which help. Anything the schema holds that the UI description does
 * not name still shows, with the widget its type implies, so a new optional property needs no UI code.
 */
import type { ReactNode } from 'react'
import type { DefinitionError } from '../../../schemas/generated/cc-answers/common'

/** The part of JSON Schema the forms read. */
export interface JsonSchema {
  $ref?: string
  type?: string | string[]
  title?: string
  description?: string
  enum?: unknown[]
  const?: unknown
  default?: unknown
  maxLength?: number
  minLength?: number
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
  required?: string[]
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  $defs?: Record<string, JsonSchema>
}

/** The widgets of the one registry (registry.tsx). */
export type WidgetName =
  | 'text'
  | 'longText'
  | 'number'
  | 'enum'
  | 'boolean'
  | 'lines'
  | 'commaList'
  | 'date'
  | 'phone'
  | 'reference'
  | 'referenceSet'
  | 'image'
  | 'cta'
  | 'faq'
  | 'markdown'
  | 'actions'
  | 'questions'

/** One option of an enum or reference widget. */
export interface Choice {
  value: string
  label: string
}

/** Where and how one property shows. */
export interface UiField {
  /** The property's JSON pointer in the document, e.g. `/headline` or `/match/pages`. */
  pointer: string
  widget?: WidgetName
  /** The tab (section) it shows in; the form's `defaultTab` when absent. */
  tab?: string
  /** Defaults to the property name in words. */
  label?: string
  /** Shown under the field before the schema's `description`. */
  help?: ReactNode
  /** Replaces the schema's `description` as help. */
  helpOnly?: boolean
  placeholder?: string
  /** Shows only when this holds (a field holding a value always shows). */
  when?: (doc: Record<string, unknown>) => boolean
  /** A class on the field's wrapper (screens style and tests find fields by it). */
  className?: string
  /** Read-only in this form (e.g. an id that equals the file name). */
  readOnly?: boolean
  /** For `reference` / `referenceSet`: the list in the form's context (FormContext.refs) it picks from. */
  ref?: string
  /** For `enum`: offer "(not set)" (default: when the property is optional). */
  allowNone?: boolean
  /** For `enum`: leave these values out of the list (unless the document holds one). */
  exclude?: string[]
  /** For `longText`: rows. */
  rows?: number
  /** Value shown when the document has none (`boolean`: the schema's default otherwise). */
  fallback?: unknown
  /** Extra HTML attributes for the input (inputMode, autoComplete…). */
  attrs?: Record<string, string>
  /** `text`: show a character count against the schema's `maxLength`. */
  counter?: boolean
  /** An instant check in the browser (before the server's answer): its message, or null. */
  check?: (doc: Record<string, unknown>) => string | null
  /** The label is for screen readers only (the field sits under a heading that says it). */
  hideLabel?: boolean
  /** Write exactly what is entered: an emptied text or a default boolean stays (a funnel's overrides). */
  literal?: boolean
  /** Consecutive fields with the same section are drawn in one fieldset with this legend. */
  section?: string
  /** Drawn under the field (e.g. the URLs a path gives). */
  after?: (doc: Record<string, unknown>, ctx: FormContext) => ReactNode
}

/** A kind's UI description. */
export interface UiDescription {
  /** The tab new (undescribed) properties show in. */
  defaultTab: string
  fields: UiField[]
  /** Top-level properties the form never shows (e.g. `$schema`). */
  omit?: string[]
  /** Top-level properties edited in the Source tab only, by tab: a count and a link show instead. */
  sourceOnly?: Record<string, string>
  /** Help under a section's legend, by section. */
  sectionHelp?: Record<string, ReactNode>
  /** The DOM id prefix: a field's input is `<prefix><pointer with dashes>`. */
  idPrefix: string
}

/** What a form's widgets may look up: lists of other definitions, uploaded images… */
export interface FormContext {
  /** Reference lists by name (null while loading). */
  refs?: Record<string, Choice[] | null | undefined>
  /** Anything else a widget of this form needs (image rows, step names…). */
  [key: string]: unknown
}

/** What the field shell hands an input: its id, its help and error ids, whether it is invalid. */
export interface FieldIds {
  id: string
  describedBy: string
  invalid: boolean
}

/** Renders one labelled field (label, help, errors) around an input: group widgets use it for their parts. */
export type FieldRenderer = (
  pointer: string,
  label: string,
  input: (ids: FieldIds) => ReactNode,
  help?: ReactNode,
  className?: string,
) => ReactNode

export interface WidgetProps extends FieldIds {
  pointer: string
  value: unknown
  /** The property's schema ($refs resolved). */
  schema: JsonSchema
  /** Whether the property is required in its parent. */
  required: boolean
  ui: UiField
  label: string
  readOnly: boolean
  /** Sets the value at `pointer`; undefined (or an empty optional value) removes it. */
  onChange: (v: unknown) => void
  doc: Record<string, unknown>
  /** Sets any pointer (group widgets). */
  setAt: (pointer: string, v: unknown) => void
  ctx: FormContext
  errors: DefinitionError[]
  field: FieldRenderer
  idFor: (pointer: string) => string
}

/**
 * A registry entry: `group` widgets draw their own fieldset and labels, and are called while the form
 * draws (their parts claim their errors in order), so they use no hooks; the others are components.
 * `inline` ones sit before their label.
 */
export interface WidgetEntry {
  component: (p: WidgetProps) => ReactNode
  group?: boolean
  inline?: boolean
}
