import { useId, useMemo, useState } from 'react'
import './funnel.css'
import { funnelFlow, resolveFlowSteps } from '../../../engine/funnel/funnel-flow'
import { ccPath } from '../../../engine/render/control-center-routes'
import type { PageInfo } from '../../../schemas/generated/cc-answers/common'
import type { FunnelEditorData } from '../../../schemas/generated/cc-answers/editor'
import type { Funnel, FunnelStep } from '../../../schemas/generated/funnel'
import type { Step } from '../../../schemas/generated/step'
import { branchApi } from '../api'
import { Empty, ErrorState, Loading } from '../States'
import { useJsonDraft } from '../use-json-draft'
import { useResource } from '../use-resource'
import { FlowGraph } from './FlowGraph'
import { SharedStepDialog } from './SharedStepDialog'
import { StepCard } from './StepCard'
import { bumpFormVersion, stepUsage, usageHeadline } from './usage'

/** The page editor's Funnel tab: the funnel the page runs (its `form`), edited as steps and a flow. */
export function FunnelTab({
  branch,
  page,
  onSaved,
}: {
  branch: string
  page: PageInfo | undefined
  onSaved?: () => void
}) {
  const [tick, setTick] = useState(0)
  const data = useResource<FunnelEditorData>(
    page ? branchApi(branch, `/funnel-editor?page=${encodeURIComponent(page.key)}`) : null,
    tick,
  )
  if (!page) return <Loading what="the page" />
  if (data.error) return <ErrorState message={data.error} retry={data.reload} />
  if (!data.data) return <Loading what="the funnel" />
  const id = data.data.funnel
  if (!id)
    return (
      <Empty>
        This page runs no funnel. To give it one, set its <code>form</code> to a funnel id in the Source tab.
      </Empty>
    )
  const entry = data.data.funnels.find((f) => f.id === id)
  if (!entry)
    return (
      <ErrorState
        message={`The page names funnel "${id}", which is not on this branch. Fix its form in the Source tab.`}
      />
    )
  return (
    <>
      <a className="button cc-small" href={ccPath('funnel-dropoff', { funnel: id })}>
        Drop-off of this funnel (live traffic)
      </a>
      <FunnelEditor
        key={entry.path}
        branch={branch}
        path={entry.path}
        data={data.data}
        onSaved={onSaved}
        // A saved shared step changes the inherited values: ask for the library again.
        onStepSaved={() => {
          setTick((t) => t + 1)
          onSaved?.()
        }}
      />
    </>
  )
}

function FunnelEditor({
  branch,
  path,
  data,
  onSaved,
  onStepSaved,
}: {
  branch: string
  path: string
  data: FunnelEditorData
  onSaved?: () => void
  onStepSaved: () => void
}) {
  const draft = useJsonDraft<Funnel>(branch, path, onSaved)
  const [view, setView] = useState<'steps' | 'flow'>('steps')
  const [shared, setShared] = useState<string | null>(null)
  const [adding, setAdding] = useState('')
  const base = useId()
  const library = useMemo(
    () => new Map(data.steps.filter((s) => s.doc).map((s) => [s.id, s.doc as Step] as const)),
    [data.steps],
  )
  const funnel = draft.value
  const flow = useMemo(
    () => (funnel?.steps ? funnelFlow(resolveFlowSteps(funnel, library)) : null),
    [funnel, library],
  )
  const before = useMemo(
    () => (draft.committed?.steps ? funnelFlow(resolveFlowSteps(draft.committed, library)) : null),
    [draft.committed, library],
  )

  if (draft.loadError) return <ErrorState message={draft.loadError} retry={draft.reload} />
  if (draft.unreadable)
    return (
      <p className="cc-form-error" role="alert">
        The funnel's file is not a JSON object, so this editor cannot show it: fix <code>{path}</code> in its
        Source tab.
      </p>
    )
  if (!funnel || !flow) return <Loading what={path} />
  const steps: FunnelStep[] = Array.isArray(funnel.steps) ? funnel.steps : []
  // Usage counts this funnel as it is now (unsaved steps included), the others as on the branch.
  const funnels = data.funnels.map((f) => ({
    id: f.id,
    steps: (f.path === path ? steps : (f.doc?.steps ?? [])).map((s) => s.step),
  }))
  const usageOf = (stepId: string) => stepUsage(stepId, funnels, data.pages)
  const resolved = resolveFlowSteps({ steps: steps as Funnel['steps'] }, library)
  const stepNames = resolved.map((s) => s.name)
  const fieldKinds = Object.fromEntries(resolved.flatMap((s) => s.fields.map((f) => [f.name, f.kind])))
  const setSteps = (next: FunnelStep[]) => draft.update({ ...funnel, steps: next as Funnel['steps'] })
  const move = (i: number, by: -1 | 1) => {
    const next = [...steps]
    ;[next[i], next[i + by]] = [next[i + by], next[i]]
    setSteps(next)
    // The keyboard stays with the step it moved: focus its same button at its new place.
    requestAnimationFrame(() => {
      const cards = document.querySelectorAll<HTMLElement>(`#${CSS.escape(base)}-steps > li`)
      const b = cards[i + by]?.querySelectorAll<HTMLButtonElement>('.fw-step-buttons button')
      const target = b?.[by < 0 ? 0 : 1]
      ;(target && !target.disabled ? target : b?.[by < 0 ? 1 : 0])?.focus()
    })
  }
  // A meaning change: an answer's kind or options differ from the committed funnel, or an answer
  // was added or removed. Moving steps changes no answer's meaning.
  const signature = (f: Pick<Funnel, 'steps'> | null) =>
    f?.steps
      ? JSON.stringify(
          resolveFlowSteps(f, library)
            .flatMap((s) =>
              s.fields.map((x) => `${x.name}:${x.kind}:${(x.options ?? []).map((o) => o.value).join('|')}`),
            )
            .sort(),
        )
      : null
  const meaningChanged =
    draft.committed !== null &&
    signature(draft.committed) !== signature(funnel) &&
    funnel.formVersion === draft.committed.formVersion
  const funnelErrors = draft.errors.filter((e) => !/^\/steps\/\d+/.test(e.pointer))
  const errorsOf = (i: number) =>
    draft.errors.filter((e) => e.pointer === `/steps/${i}` || e.pointer.startsWith(`/steps/${i}/`))
  const sharedUsage = shared ? usageOf(shared) : null
  return (
    <div className="fw-funnel stack" data-testid="funnel-editor">
      {draft.bar}
      <div className="fw-funnel-head">
        <div className="cc-field">
          <label htmlFor={`${base}-id`}>Funnel</label>
          <input id={`${base}-id`} value={funnel.id} readOnly />
        </div>
        <div className="cc-field">
          <label htmlFor={`${base}-fv`}>Form version</label>
          <input
            id={`${base}-fv`}
            value={funnel.formVersion ?? ''}
            readOnly={draft.readOnly}
            aria-describedby={`${base}-fv-help`}
            onChange={(e) => draft.update({ ...funnel, formVersion: e.target.value })}
          />
          <small id={`${base}-fv-help`} className="muted">
            Answers are kept per form version; change it when the meaning of the answers changes.
          </small>
        </div>
        <div className="cc-field fw-funnel-description">
          <label htmlFor={`${base}-desc`}>Description</label>
          <input
            id={`${base}-desc`}
            value={funnel.description ?? ''}
            readOnly={draft.readOnly}
            onChange={(e) => {
              const { description: _, ...rest } = funnel
              draft.update(e.target.value ? { ...rest, description: e.target.value } : rest)
            }}
          />
        </div>
      </div>
      {meaningChanged && (
        <div className="cc-banner fw-bump" role="status">
          <p>
            The questions changed (an answer's name, kind or options), so answers saved under{' '}
            <code>{funnel.formVersion}</code> may now mean something else. Bump the form version so old and
            new answers are kept apart.
          </p>
          {!draft.readOnly && (
            <button
              type="button"
              className="button cc-small"
              onClick={() => draft.update({ ...funnel, formVersion: bumpFormVersion(funnel.formVersion) })}
            >
              Bump to {bumpFormVersion(funnel.formVersion)}
            </button>
          )}
        </div>
      )}
      {funnelErrors.length > 0 && (
        <ul className="fw-field-errors" aria-label="Errors in this funnel">
          {funnelErrors.map((e) => (
            <li key={`${e.pointer}${e.message}`} className="cc-form-error">
              <code>{e.pointer || '/'}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
      <fieldset className="cc-segmented">
        <legend className="cc-visually-hidden">Show</legend>
        {(['steps', 'flow'] as const).map((v) => (
          <label key={v}>
            <input type="radio" name={`${base}-view`} checked={view === v} onChange={() => setView(v)} />
            <span>{v === 'steps' ? 'Steps' : 'Flow graph'}</span>
          </label>
        ))}
      </fieldset>
      {view === 'flow' ? (
        <FlowGraph flow={flow} before={before} />
      ) : (
        <>
          <ol id={`${base}-steps`} className="fw-steps" aria-label={`Steps of funnel ${funnel.id}`}>
            {steps.map((s, i) => (
              <StepCard
                key={`${s.step}:${steps.slice(0, i).filter((x) => x.step === s.step).length}`}
                index={i}
                count={steps.length}
                entry={s}
                step={library.get(s.step)}
                usage={usageHeadline(usageOf(s.step))}
                errors={errorsOf(i)}
                stepNames={stepNames}
                fieldKinds={fieldKinds}
                readOnly={draft.readOnly}
                onChange={(next) => setSteps(steps.map((x, j) => (j === i ? next : x)))}
                onMove={(by) => move(i, by)}
                onRemove={() => setSteps(steps.filter((_, j) => j !== i))}
                onEditShared={() => setShared(s.step)}
              />
            ))}
          </ol>
          {!draft.readOnly && (
            <form
              className="cc-row fw-add-step"
              onSubmit={(e) => {
                e.preventDefault()
                if (!adding) return
                setSteps([...steps, { step: adding }])
                setAdding('')
              }}
            >
              <div className="cc-field cc-inline">
                <label htmlFor={`${base}-add`}>Add a step from the library</label>
                <select id={`${base}-add`} value={adding} onChange={(e) => setAdding(e.target.value)}>
                  <option value="">Choose a step…</option>
                  {data.steps
                    .filter((s) => s.doc)
                    .map((s) => (
                      <option key={s.id} value={s.id}>
                        {s.id} — {s.doc?.title}
                      </option>
                    ))}
                </select>
              </div>
              <button type="submit" className="button cc-small" disabled={!adding}>
                Add step
              </button>
            </form>
          )}
        </>
      )}
      {shared && sharedUsage && (
        <SharedStepDialog
          branch={branch}
          stepId={shared}
          usage={sharedUsage}
          stepNames={stepNames}
          fieldKinds={fieldKinds}
          onClose={() => setShared(null)}
          onSaved={onStepSaved}
        />
      )}
    </div>
  )
}
