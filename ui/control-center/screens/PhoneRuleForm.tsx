import { type ReactElement, useId, useState } from 'react'
import { formatPhoneDashed } from '../../../engine/phone/phone-format'
import type { DefinitionError } from '../../../schemas/generated/cc-answers/common'
import type { CcPhoneRules, PhoneRuleRow } from '../../../schemas/generated/cc-answers/phone-rules'
import schema from '../../../schemas/phone-rule.schema.json'
import { FieldInput } from '../FieldInput'
import { SourceEditor } from '../SourceEditor'
import { ErrorState, Loading } from '../States'
import { Tabs } from '../Tabs'
import { useJsonDraft } from '../use-json-draft'

/** A rule file as GET /api/cc/branches/:b/phone-rules lists it. */
export type { PhoneRuleRow }

/** GET /api/cc/branches/:b/phone-rules. */
export type PhoneRulesData = CcPhoneRules

type Doc = Record<string, unknown>
const LISTS = ['pages', 'utmSource', 'afid'] as const
type ListName = (typeof LISTS)[number]

interface Prop {
  description?: string
  type?: string
  properties?: Record<string, Prop>
}
const PROPS = schema.properties as Record<string, Prop>
const MATCH_PROPS = PROPS.match.properties as Record<string, Prop>
const LABELS: Record<string, string> = {
  id: 'Id',
  description: 'Description',
  brand: 'Brand',
  defaultNumber: 'Phone number',
  placementId: 'Placement id',
  afid: 'Affiliate id (sub_1)',
  pages: 'Pages',
  utmSource: 'utm_source values',
}
const MATCH_LABELS: Record<ListName, string> = {
  pages: 'Pages',
  utmSource: 'utm_source values',
  afid: 'afid values',
}
const listText = (v: unknown) => (Array.isArray(v) ? v.join(', ') : '')
const splitList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)

/** The selected rule (`&file=`): a form built from phone-rule.schema.json, and its Source tab. */
export function PhoneRuleDetail({
  branch,
  path,
  data,
}: {
  branch: string
  path: string
  data: PhoneRulesData | null
}) {
  const [tab, setTab] = useState('form')
  const close = new URL(location.href)
  close.searchParams.delete('file')
  close.searchParams.delete('pointer')
  return (
    <section className="cc-card cc-detail fw-pr-detail" aria-label={`Phone rule ${path}`}>
      <div className="cc-row cc-row-between">
        <h2 className="cc-h3">
          <code>{path}</code>
        </h2>
        <a className="button cc-small" href={close.pathname + close.search}>
          Close
        </a>
      </div>
      <Tabs
        label="Edit the rule"
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: 'form', label: 'Form' },
          { id: 'source', label: 'Source' },
        ]}
      >
        {tab === 'form' ? (
          <PhoneRuleForm branch={branch} path={path} data={data} />
        ) : (
          <SourceEditor branch={branch} path={path} />
        )}
      </Tabs>
    </section>
  )
}

/**
 * The rule's fields, saved as my draft 800 ms after typing stops (the same drafts and commit as the
 * Source editor, and the same text kept in this browser until the server has it), with the server's
 * errors at their field. What is typed stays as typed, valid or not.
 */
function PhoneRuleForm({
  branch,
  path,
  data,
}: {
  branch: string
  path: string
  data: PhoneRulesData | null
}) {
  const draft = useJsonDraft<Doc>(branch, path)
  const { value, errors } = draft
  /** The comma lists as typed ("a, " stays as typed while it means the same list). */
  const [typed, setTyped] = useState<Partial<Record<ListName, string>>>({})
  const base = useId()
  const listOf = (name: ListName) => ((value?.match ?? {}) as Record<string, unknown>)[name]
  const shown = (name: ListName) => {
    const t = typed[name]
    return t !== undefined && listText(splitList(t)) === listText(listOf(name)) ? t : listText(listOf(name))
  }
  const update = draft.update

  const setField = (name: string, v: string) => {
    const next = { ...value }
    if (v === '' && name === 'description') delete next[name]
    else next[name] = v
    update(next)
  }
  const setList = (name: ListName, raw: string) => {
    setTyped((l) => ({ ...l, [name]: raw }))
    const match = { ...((value?.match ?? {}) as Record<string, unknown>) }
    const items = splitList(raw)
    if (items.length) match[name] = items
    else delete match[name]
    const next = { ...value }
    // Keys in the schema's order, and no empty `match` (a rule without one is the brand default).
    const ordered = Object.fromEntries(LISTS.filter((k) => k in match).map((k) => [k, match[k]]))
    if (Object.keys(ordered).length) next.match = ordered
    else delete next.match
    update(next)
  }

  if (draft.loadError) return <ErrorState message={draft.loadError} retry={draft.reload} />
  if (draft.loading || (!value && !draft.unreadable)) return <Loading what={path} />
  if (draft.unreadable || !value)
    return (
      <p className="cc-form-error" role="alert">
        This file is not a JSON object, so the form cannot show it: fix it in the Source tab.
      </p>
    )
  const errorsAt = (pointer: string) =>
    errors.filter((e) => e.pointer === pointer || e.pointer.startsWith(`${pointer}/`))
  const shownElsewhere = new Set(
    [
      '/id',
      '/description',
      '/brand',
      '/defaultNumber',
      '/placementId',
      '/afid',
      '/match',
      ...LISTS.map((l) => `/match/${l}`),
    ].flatMap((p) => errorsAt(p)),
  )
  const otherErrors = errors.filter((e) => !shownElsewhere.has(e))
  const brands = data?.brands.filter((b) => b.public) ?? []
  const brand = String(value.brand ?? '')
  const brandPages = data?.pages[brand] ?? []
  const str = (k: string) => (typeof value[k] === 'string' ? (value[k] as string) : String(value[k] ?? ''))

  const field = (
    name: string,
    input: (p: { id: string; describedBy: string; invalid: boolean }) => ReactElement,
    extra?: ReactElement,
  ) => {
    const id = `${base}-${name}`
    const errs = errorsAt(`/${name}`)
    return (
      <div className="cc-field fw-pr-field">
        <label htmlFor={id}>{LABELS[name] ?? name}</label>
        {input({ id, describedBy: `${id}-help ${id}-err`, invalid: errs.length > 0 })}
        <small id={`${id}-help`} className="muted">
          {extra}
          {PROPS[name]?.description}
        </small>
        <FieldErrors id={`${id}-err`} errors={errs} />
      </div>
    )
  }

  return (
    <div className="stack fw-pr-form">
      {draft.bar}
      <form className="fw-pr-fields" onSubmit={(e) => e.preventDefault()} aria-label="Rule fields">
        {field('id', (p) => (
          <FieldInput field={p} value={str('id')} readOnly />
        ))}
        {field('description', (p) => (
          <FieldInput
            field={p}
            value={str('description')}
            onChange={(e) => setField('description', e.target.value)}
          />
        ))}
        {field('brand', (p) => (
          <select
            id={p.id}
            value={brand}
            onChange={(e) => setField('brand', e.target.value)}
            aria-describedby={p.describedBy}
            aria-invalid={p.invalid || undefined}
          >
            {!brands.some((b) => b.id === brand) && <option value={brand}>{brand || '(none)'}</option>}
            {brands.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name.replace(/\{[^}]*\}/g, '').trim() || b.id} ({b.id})
              </option>
            ))}
          </select>
        ))}
        {field(
          'defaultNumber',
          (p) => (
            <FieldInput
              field={p}
              value={str('defaultNumber')}
              onChange={(e) => setField('defaultNumber', e.target.value)}
              inputMode="tel"
              autoComplete="off"
            />
          ),
          <span className="fw-pr-shows">
            Visitors see <strong>{formatPhoneDashed(str('defaultNumber')) || '—'}</strong>.{' '}
          </span>,
        )}
        <fieldset className="fw-pr-match">
          <legend>Match (empty: the brand default)</legend>
          <p className="muted fw-pr-help">{PROPS.match.description} Separate values with commas.</p>
          {LISTS.map((name) => {
            const id = `${base}-match-${name}`
            const errs = errorsAt(`/match/${name}`)
            return (
              <div key={name} className="cc-field fw-pr-field">
                <label htmlFor={id}>{MATCH_LABELS[name]}</label>
                <input
                  id={id}
                  value={shown(name)}
                  onChange={(e) => setList(name, e.target.value)}
                  list={name === 'pages' ? `${id}-options` : undefined}
                  aria-describedby={`${id}-help ${id}-err`}
                  aria-invalid={errs.length > 0 || undefined}
                />
                {name === 'pages' && (
                  <datalist id={`${id}-options`}>
                    {brandPages.map((p) => (
                      <option key={p} value={p} />
                    ))}
                  </datalist>
                )}
                <small id={`${id}-help`} className="muted">
                  {MATCH_PROPS[name]?.description}
                </small>
                <FieldErrors id={`${id}-err`} errors={errs} />
              </div>
            )
          })}
          <FieldErrors id={`${base}-match-err`} errors={errors.filter((e) => e.pointer === '/match')} />
        </fieldset>
        {field('placementId', (p) => (
          <FieldInput
            field={p}
            value={str('placementId')}
            onChange={(e) => setField('placementId', e.target.value)}
          />
        ))}
        {field('afid', (p) => (
          <FieldInput field={p} value={str('afid')} onChange={(e) => setField('afid', e.target.value)} />
        ))}
      </form>
      {otherErrors.length > 0 && (
        <section aria-label="Other errors in this file">
          <h3 className="cc-h3">Other errors in this file</h3>
          <FieldErrors id={`${base}-other-err`} errors={otherErrors} />
        </section>
      )}
    </div>
  )
}

function FieldErrors({ id, errors }: { id: string; errors: DefinitionError[] }) {
  return (
    <ul id={id} className="fw-pr-field-errors" data-testid="field-errors">
      {errors.map((e) => (
        <li key={`${e.pointer}:${e.message}`} className="cc-form-error">
          {e.pointer.split('/').length > 2 && <code>{e.pointer}</code>} {e.message}
        </li>
      ))}
    </ul>
  )
}
