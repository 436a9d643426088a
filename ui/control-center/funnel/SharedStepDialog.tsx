import { useId } from 'react'
import { actionList } from '../../../engine/funnel/funnel-flow'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { Step } from '../../../schemas/generated/step'
import { Dialog } from '../Dialog'
import { ErrorState, Loading } from '../States'
import { useJsonDraft } from '../use-json-draft'
import { ActionList } from './ActionList'
import { type StepUsage, usageHeadline } from './usage'

/**
 * A shared step opened from a funnel: who it reaches first ("Shared by N funnels on M brands", with
 * every funnel's pages and brands), then its own values. Edits are my draft of the step file, saved
 * as I type and committed with Commit; every funnel that does not override a value gets the change.
 */
export function SharedStepDialog({
  branch,
  stepId,
  usage,
  stepNames,
  fieldKinds,
  onClose,
  onSaved,
}: {
  branch: string
  stepId: string
  usage: StepUsage
  stepNames: string[]
  fieldKinds: Record<string, string>
  onClose: () => void
  onSaved: () => void
}) {
  return (
    <Dialog open title={`Shared step ${stepId}`} onClose={onClose} wide>
      <section className="fw-impact stack" aria-label="Who this step reaches" data-testid="step-usage">
        <p className="fw-impact-headline">
          <strong>{usageHeadline(usage)}</strong>
          {usage.pages > 0 && (
            <>
              , {usage.pages} page{usage.pages === 1 ? '' : 's'}
            </>
          )}
          . A change here reaches every one of them unless the funnel overrides that value.
        </p>
        <ul className="fw-impact-list">
          {usage.funnels.map((f) => (
            <li key={f.id}>
              Funnel <code>{f.id}</code>
              {f.pages.length === 0 ? (
                <span className="muted"> — no page runs it</span>
              ) : (
                <ul>
                  {f.pages.map((p) => (
                    <li key={p.key}>
                      <a href={ccPath('page', { page: p.key }, branch)}>{p.key}</a>{' '}
                      <span className="muted">on {p.brands.join(', ') || 'no brand'}</span>
                      {p.experiment && <span className="cc-badge">experiment {p.experiment}</span>}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </section>
      <StepForm
        branch={branch}
        stepId={stepId}
        stepNames={stepNames}
        fieldKinds={fieldKinds}
        onSaved={onSaved}
      />
      <div className="cc-row">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  )
}

function StepForm({
  branch,
  stepId,
  stepNames,
  fieldKinds,
  onSaved,
}: {
  branch: string
  stepId: string
  stepNames: string[]
  fieldKinds: Record<string, string>
  onSaved: () => void
}) {
  const path = `definitions/steps/${stepId}.json`
  const draft = useJsonDraft<Step>(branch, path, onSaved)
  const base = useId()
  if (draft.loadError) return <ErrorState message={draft.loadError} retry={draft.reload} />
  if (draft.unreadable)
    return (
      <p className="cc-form-error" role="alert">
        This step's file is not a JSON object: fix it in its Source tab (<code>{path}</code>).
      </p>
    )
  const step = draft.value
  if (!step) return <Loading what={path} />
  const errorsAt = (pointer: string) =>
    draft.errors.filter((e) => e.pointer === pointer || e.pointer.startsWith(`${pointer}/`))
  const text = (key: 'title' | 'subtitle' | 'submitLabel', label: string) => {
    const id = `${base}-${key}`
    const errs = errorsAt(`/${key}`)
    return (
      <div className="cc-field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          value={step[key] ?? ''}
          readOnly={draft.readOnly}
          aria-invalid={errs.length > 0 || undefined}
          aria-describedby={`${id}-err`}
          onChange={(e) => {
            const next = { ...step, [key]: e.target.value }
            if (!e.target.value && key !== 'title') delete next[key]
            draft.update(next)
          }}
        />
        <ul id={`${id}-err`} className="fw-field-errors">
          {errs.map((e) => (
            <li key={e.message} className="cc-form-error">
              {e.message}
            </li>
          ))}
        </ul>
      </div>
    )
  }
  return (
    <form
      className="stack fw-step-form"
      aria-label={`Shared step ${stepId}`}
      onSubmit={(e) => e.preventDefault()}
    >
      {draft.bar}
      {text('title', 'Question (title)')}
      {text('subtitle', 'Subtitle')}
      {text('submitLabel', 'Button label')}
      <fieldset className="stack">
        <legend>Questions</legend>
        {step.fields.map((f, i) => {
          const id = `${base}-f${i}`
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a field's place in the step is its identity
            <div key={`${f.name}:${i}`} className="cc-field">
              <label htmlFor={id}>
                Label of <code>{f.name}</code> ({f.kind})
              </label>
              <input
                id={id}
                value={f.label}
                readOnly={draft.readOnly}
                onChange={(e) =>
                  draft.update({
                    ...step,
                    fields: step.fields.map((x, j) => (j === i ? { ...x, label: e.target.value } : x)),
                  })
                }
              />
            </div>
          )
        })}
      </fieldset>
      <fieldset className="stack">
        <legend>After the answers (onSubmit)</legend>
        <ActionList
          actions={actionList(step.onSubmit)}
          onChange={(next) => {
            const s = { ...step, onSubmit: next }
            if (next.length === 0) delete (s as Partial<Step>).onSubmit
            draft.update(s)
          }}
          stepNames={stepNames}
          fieldKinds={fieldKinds}
          label={`Actions of shared step ${stepId}`}
          disabled={draft.readOnly}
        />
      </fieldset>
      {draft.errors.length > 0 && (
        <ul className="fw-field-errors" aria-label="Errors in this step">
          {draft.errors.map((e) => (
            <li key={`${e.pointer}${e.message}`} className="cc-form-error">
              <code>{e.pointer || '/'}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
    </form>
  )
}
