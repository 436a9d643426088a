import { useMemo } from 'react'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { Step } from '../../../schemas/generated/step'
import stepSchema from '../../../schemas/step.schema.json'
import { Dialog } from '../Dialog'
import { STEP_UI } from '../forms/kinds/step-ui'
import { SchemaForm } from '../forms/SchemaForm'
import type { JsonSchema } from '../forms/types'
import { ErrorState, Loading } from '../States'
import { useJsonDraft } from '../use-json-draft'
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
  const ctx = useMemo(() => ({ stepNames, fieldKinds }), [stepNames, fieldKinds])
  if (draft.loadError) return <ErrorState message={draft.loadError} retry={draft.reload} />
  if (draft.unreadable)
    return (
      <p className="cc-form-error" role="alert">
        This step's file is not a JSON object: fix it in its Source tab (<code>{path}</code>).
      </p>
    )
  const step = draft.value
  if (!step) return <Loading what={path} />
  return (
    <div className="stack">
      {draft.bar}
      <SchemaForm
        schema={stepSchema as JsonSchema}
        ui={STEP_UI}
        value={step as unknown as Record<string, unknown>}
        onChange={(next) => draft.update(next as unknown as Step)}
        errors={draft.errors}
        readOnly={draft.readOnly}
        ctx={ctx}
        label={`Shared step ${stepId}`}
        className="fw-step-form"
      />
    </div>
  )
}
