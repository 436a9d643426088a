import { type ReactNode, useId, useMemo } from 'react'
import { actionList, actionSentence } from '../../../engine/funnel/funnel-flow'
import type { DefinitionError } from '../../../schemas/generated/cc-answers/common'
import type { FunnelStep, StepOverrides } from '../../../schemas/generated/funnel'
import type { Step } from '../../../schemas/generated/step'
import { OVERRIDE_LABELS, STEP_OVERRIDES_SCHEMA, STEP_OVERRIDES_UI } from '../forms/kinds/step-overrides-ui'
import { SchemaForm } from '../forms/SchemaForm'

type OverrideKey = keyof typeof OVERRIDE_LABELS
const TEXTS = ['title', 'subtitle', 'submitLabel', 'name'] as const

/** A funnel step with these overrides (none: no `overrides` key, every value shared). */
function withOverrides(ref: FunnelStep, overrides: StepOverrides): FunnelStep {
  const { overrides: _, ...rest } = ref
  return Object.keys(overrides).length ? { ...rest, overrides } : rest
}

/** A funnel step's overrides with one key set (or removed: back to the shared value). */
function withOverride(ref: FunnelStep, key: keyof StepOverrides, value: unknown): FunnelStep {
  const overrides = { ...(ref.overrides ?? {}) } as Record<string, unknown>
  if (value === undefined) delete overrides[key]
  else overrides[key] = value
  return withOverrides(ref, overrides as StepOverrides)
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
  const heading = `${base}-h`
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
      <StepValues
        {...{ stepRef, step, name, index, errors, stepNames, fieldKinds, readOnly, onChange }}
        idBase={base}
      />
    </li>
  )
}

/** The values the funnel may override, each as the shared value or the funnel's own (through the registry). */
function StepValues({
  stepRef,
  step,
  name,
  index,
  errors,
  stepNames,
  fieldKinds,
  readOnly,
  onChange,
  idBase: base,
}: {
  stepRef: FunnelStep
  step: Step | undefined
  name: string
  index: number
  errors: DefinitionError[]
  stepNames: string[]
  fieldKinds: Record<string, string>
  readOnly: boolean
  onChange: (next: FunnelStep) => void
  idBase: string
}) {
  const o = stepRef.overrides ?? {}
  const set = (key: keyof StepOverrides, value: unknown) => onChange(withOverride(stepRef, key, value))
  const ctx = useMemo(() => ({ stepNames, fieldKinds }), [stepNames, fieldKinds])
  const prefix = `/steps/${index}/overrides`
  /** The step's errors inside its overrides, as pointers into the overrides object. */
  const overrideErrors = errors
    .filter((e) => e.pointer.startsWith(`${prefix}/`))
    .map((e) => ({ ...e, pointer: e.pointer.slice(prefix.length) }))
  const row = (key: OverrideKey, inherited: ReactNode, start: () => unknown) => {
    const isOwn = key in o
    const label = OVERRIDE_LABELS[key]
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
        {isOwn ? (
          <SchemaForm
            schema={STEP_OVERRIDES_SCHEMA}
            ui={STEP_OVERRIDES_UI}
            tab={key}
            idPrefix={`${base}-ovr`}
            value={o as Record<string, unknown>}
            onChange={(next) => onChange(withOverrides(stepRef, next as StepOverrides))}
            errors={overrideErrors}
            readOnly={readOnly}
            ctx={ctx}
            label={`Step ${name}: ${label} in this funnel`}
            className="fw-ovr-form"
          />
        ) : (
          <div className="fw-inherited">{inherited}</div>
        )}
      </div>
    )
  }
  return (
    <details className="fw-step-details">
      <summary>Values in this funnel</summary>
      <div className="stack">
        {TEXTS.map((key) => (
          <div key={key}>
            {row(key, step?.[key] ?? <span className="muted">(none)</span>, () => step?.[key] ?? '')}
          </div>
        ))}
        {row(
          'skippable',
          step?.skippable ? 'yes: a skip link submits the step empty' : 'no',
          () => !(step?.skippable ?? false),
        )}
        {row('fields', <FieldsSummary step={step} />, () => structuredClone(step?.fields ?? []))}
        {(['onSubmit', 'onEnter'] as const).map((key) => (
          <div key={key}>
            {row(key, <ActionsSummary actions={step?.[key]} />, () =>
              structuredClone(actionList(step?.[key])),
            )}
          </div>
        ))}
      </div>
    </details>
  )
}

/** The shared step's questions, as the funnel inherits them. */
function FieldsSummary({ step }: { step: Step | undefined }) {
  return (
    <ul className="fw-field-summary">
      {(step?.fields ?? []).map((f) => (
        <li key={f.name}>
          {f.label}{' '}
          <span className="muted">
            ({f.name}, {f.kind})
          </span>
        </li>
      ))}
    </ul>
  )
}

/** The shared step's actions in words, as the funnel inherits them. */
function ActionsSummary({ actions }: { actions: Step['onSubmit'] }) {
  const list = actionList(actions)
  return list.length ? (
    <ol className="fw-sentences">
      {list.map((a, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: an item's place in the list is its identity (actions have no ids)
        <li key={`${i}${a.type}`}>{actionSentence(a)}</li>
      ))}
    </ol>
  ) : (
    <span className="muted">No actions.</span>
  )
}
