import { type ReactNode, useId } from 'react'
import { actionList, actionSentence } from '../../../engine/funnel/funnel-flow'
import fieldSchema from '../../../schemas/field.schema.json'
import type { DefinitionError } from '../../../schemas/generated/cc-answers/common'
import type { Field, FunnelStep, StepOverrides } from '../../../schemas/generated/funnel'
import type { Step } from '../../../schemas/generated/step'
import { ActionList, FIELD_NAMES } from './ActionList'

type TextKey = 'name' | 'title' | 'subtitle' | 'submitLabel'
const TEXTS: { key: TextKey; label: string }[] = [
  { key: 'title', label: 'Question (title)' },
  { key: 'subtitle', label: 'Subtitle' },
  { key: 'submitLabel', label: 'Button label' },
  { key: 'name', label: 'Step name (URL segment)' },
]
const KINDS = (fieldSchema as { properties: { kind: { enum: Field['kind'][] } } }).properties.kind.enum

/** A funnel step's overrides with one key set (or removed: back to the shared value). */
function withOverride(ref: FunnelStep, key: keyof StepOverrides, value: unknown): FunnelStep {
  const overrides = { ...(ref.overrides ?? {}) } as Record<string, unknown>
  if (value === undefined) delete overrides[key]
  else overrides[key] = value
  const { overrides: _, ...rest } = ref
  return Object.keys(overrides).length ? { ...rest, overrides: overrides as StepOverrides } : rest
}

/**
 * One step of the funnel: its place (move up/down, remove), and each value the funnel may override,
 * shown as the shared step's value (greyed) with Override, or as the funnel's own with "Reset to
 * shared". The action lists use the sentence-form builder.
 */
export function StepCard({
  index,
  count,
  entry: stepRef,
  step,
  usage,
  errors,
  stepNames,
  fieldKinds,
  readOnly,
  onChange,
  onMove,
  onRemove,
  onEditShared,
}: {
  index: number
  count: number
  entry: FunnelStep
  step: Step | undefined
  usage: string
  errors: DefinitionError[]
  stepNames: string[]
  fieldKinds: Record<string, string>
  readOnly: boolean
  onChange: (next: FunnelStep) => void
  onMove: (by: -1 | 1) => void
  onRemove: () => void
  onEditShared: () => void
}) {
  const base = useId()
  const o = stepRef.overrides ?? {}
  const name = o.name ?? step?.name ?? stepRef.step
  const title = o.title ?? step?.title ?? ''
  const overridden = Object.keys(o)
  const set = (key: keyof StepOverrides, value: unknown) => onChange(withOverride(stepRef, key, value))
  const heading = `${base}-h`
  const row = (
    key: keyof StepOverrides,
    label: string,
    inherited: ReactNode,
    own: ReactNode,
    start: () => unknown,
  ) => {
    const isOwn = key in o
    return (
      <div className={`fw-ovr${isOwn ? ' fw-ovr-own' : ''}`} data-override={key}>
        <div className="fw-ovr-head">
          <span className="fw-ovr-label">{label}</span>
          <span className="fw-ovr-state">{isOwn ? 'Overridden in this funnel' : 'Shared'}</span>
          {!readOnly &&
            (isOwn ? (
              <button type="button" className="button cc-small" onClick={() => set(key, undefined)}>
                Reset to shared
              </button>
            ) : (
              <button
                type="button"
                className="button cc-small"
                aria-label={`Override ${label.toLowerCase()} of step ${name}`}
                onClick={() => set(key, start())}
              >
                Override
              </button>
            ))}
        </div>
        {isOwn ? own : <div className="fw-inherited">{inherited}</div>}
      </div>
    )
  }
  const fields = o.fields ?? step?.fields ?? []
  const setField = (i: number, f: Field) =>
    set(
      'fields',
      fields.map((x, j) => (j === i ? f : x)),
    )
  return (
    <li className="fw-step cc-card" aria-labelledby={heading} data-step={stepRef.step}>
      <div className="fw-step-head">
        <h3 id={heading} className="cc-h3">
          <span className="fw-step-number">{index + 1}.</span> {name}{' '}
          <span className="fw-step-title">{title}</span>
        </h3>
        <p className="fw-step-meta muted">
          Shared step <code>{stepRef.step}</code> · {usage}
          {overridden.length > 0 && <> · overrides {overridden.join(', ')}</>}
        </p>
        {!step && <p className="cc-form-error">There is no step "{stepRef.step}" in the library.</p>}
        {errors.map((e) => (
          <p key={`${e.pointer}${e.message}`} className="cc-form-error" role="note">
            <code>{e.pointer}</code> {e.message}
          </p>
        ))}
        <div className="cc-row fw-step-buttons">
          {!readOnly && (
            <>
              <button
                type="button"
                id={`${base}-up`}
                className="button cc-small"
                disabled={index === 0}
                aria-describedby={heading}
                onClick={() => onMove(-1)}
              >
                Move up
              </button>
              <button
                type="button"
                id={`${base}-down`}
                className="button cc-small"
                disabled={index === count - 1}
                aria-describedby={heading}
                onClick={() => onMove(1)}
              >
                Move down
              </button>
              <button
                type="button"
                className="button cc-small"
                disabled={count === 1}
                aria-describedby={heading}
                onClick={onRemove}
              >
                Remove
              </button>
            </>
          )}
          <button
            type="button"
            className="button cc-small"
            aria-describedby={heading}
            onClick={onEditShared}
            disabled={!step}
          >
            Edit shared step
          </button>
        </div>
      </div>
      <details className="fw-step-details">
        <summary>Values in this funnel</summary>
        <div className="stack">
          {TEXTS.map(({ key, label }) => {
            const id = `${base}-${key}`
            return (
              <div key={key}>
                {row(
                  key,
                  label,
                  step?.[key] ?? <span className="muted">(none)</span>,
                  <input
                    id={id}
                    aria-label={`${label}, overridden in this funnel`}
                    value={String(o[key] ?? '')}
                    readOnly={readOnly}
                    onChange={(e) => set(key, e.target.value)}
                  />,
                  () => step?.[key] ?? '',
                )}
              </div>
            )
          })}
          {row(
            'skippable',
            'Skippable',
            step?.skippable ? 'yes: a skip link submits the step empty' : 'no',
            <label className="cc-check">
              <input
                type="checkbox"
                checked={o.skippable === true}
                disabled={readOnly}
                onChange={(e) => set('skippable', e.target.checked)}
              />
              Show a skip link (submits the step with its answers empty)
            </label>,
            () => !(step?.skippable ?? false),
          )}
          {row(
            'fields',
            'Questions (fields)',
            <ul className="fw-field-summary">
              {(step?.fields ?? []).map((f) => (
                <li key={f.name}>
                  {f.label}{' '}
                  <span className="muted">
                    ({f.name}, {f.kind})
                  </span>
                </li>
              ))}
            </ul>,
            <ol className="fw-field-list">
              {fields.map((f, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: an item's place in the list is its identity (fields and actions have no ids)
                <li key={`${f.name}:${i}`} className="fw-field-row">
                  <div className="cc-field">
                    <label htmlFor={`${base}-f${i}-label1`}>Label</label>
                    <input
                      id={`${base}-f${i}-label1`}
                      value={f.label}
                      readOnly={readOnly}
                      onChange={(e) => setField(i, { ...f, label: e.target.value })}
                    />
                  </div>
                  <div className="cc-field">
                    <label htmlFor={`${base}-f${i}-answer2`}>Answer</label>
                    <select
                      id={`${base}-f${i}-answer2`}
                      value={f.name}
                      disabled={readOnly}
                      onChange={(e) => setField(i, { ...f, name: e.target.value as Field['name'] })}
                    >
                      {FIELD_NAMES.map((n) => (
                        <option key={n}>{n}</option>
                      ))}
                    </select>
                  </div>
                  <div className="cc-field">
                    <label htmlFor={`${base}-f${i}-kind3`}>Kind</label>
                    <select
                      id={`${base}-f${i}-kind3`}
                      value={f.kind}
                      disabled={readOnly}
                      onChange={(e) => setField(i, { ...f, kind: e.target.value as Field['kind'] })}
                    >
                      {KINDS.map((k) => (
                        <option key={k}>{k}</option>
                      ))}
                    </select>
                  </div>
                  <div className="cc-field">
                    <label htmlFor={`${base}-f${i}-hint4`}>Hint</label>
                    <input
                      id={`${base}-f${i}-hint4`}
                      value={f.hint ?? ''}
                      readOnly={readOnly}
                      onChange={(e) => {
                        const { hint: _, ...rest } = f
                        setField(i, e.target.value ? { ...rest, hint: e.target.value } : rest)
                      }}
                    />
                  </div>
                </li>
              ))}
            </ol>,
            () => structuredClone(step?.fields ?? []),
          )}
          {(['onSubmit', 'onEnter'] as const).map((key) => (
            <div key={key}>
              {row(
                key,
                key === 'onSubmit' ? 'After the answers (onSubmit)' : 'Before the step shows (onEnter)',
                actionList(step?.[key]).length ? (
                  <ol className="fw-sentences">
                    {actionList(step?.[key]).map((a, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: an item's place in the list is its identity (fields and actions have no ids)
                      <li key={`${i}${a.type}`}>{actionSentence(a)}</li>
                    ))}
                  </ol>
                ) : (
                  <span className="muted">No actions.</span>
                ),
                <ActionList
                  actions={actionList(o[key])}
                  onChange={(next) => set(key, next)}
                  stepNames={stepNames}
                  fieldKinds={fieldKinds}
                  label={`Actions of step ${name}, ${key}`}
                  disabled={readOnly}
                />,
                () => structuredClone(actionList(step?.[key])),
              )}
            </div>
          ))}
        </div>
      </details>
    </li>
  )
}
