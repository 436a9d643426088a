import './funnel.css'
import { useEffect, useMemo, useRef } from 'react'
import type { FunnelPageInfo } from '../../engine/funnel/funnel-deps'
import type { FunnelEvent } from '../../engine/funnel/funnel-machine'
import { POSTED_ACTION_FIELD, POSTED_BACK, POSTED_SKIP } from '../../engine/funnel/posted-fields'
import { fillText } from '../../engine/funnel/validate-field'
import type { Resolution } from '../../engine/render/resolution'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import { TpmoDisclaimer } from '../components/TpmoDisclaimer'
import { ContinueElsewhere } from './ContinueElsewhere'
import { FunnelProgress } from './FunnelProgress'
import { FIELD_RENDERERS } from './field-renderers'
import { ResumeNotice } from './ResumeNotice'
import { TcpaConsent } from './TcpaConsent'
import { useFunnel } from './use-funnel'

/** The multi-step form: draws the machine's state and sends it the visitor's events. */
export function FunnelForm({ resolution, funnel }: { resolution: Resolution; funnel: ResolvedFunnel }) {
  const p = resolution.page!
  const page = useMemo<FunnelPageInfo>(
    () => ({
      name: p.key,
      template: p.template,
      destination: p.destination ?? '/',
      allowExternalDestination: p.allowExternalDestination === true,
    }),
    [p],
  )
  const { view, send } = useFunnel(resolution, funnel, page)
  /** A button the running funnel handles; before it runs, the button posts the form. */
  const handled = (e: { preventDefault(): void }, event: FunnelEvent) => {
    if (!view.live) return
    e.preventDefault()
    send(event)
  }
  const step = funnel.steps[view.stepIndex]
  const total = funnel.steps.length
  // The funnel's words (definitions/ui-text/<language>.json), in the language of its steps.
  const text = funnel.text.funnel
  const submitLabel = step.submitLabel ?? text.continue
  const asksPhone = step.fields.some((f) => f.kind === 'tel')
  const single = step.fields.length === 1 && ['yes-no', 'choice'].includes(step.fields[0].kind)
  const errors = step.fields.filter((f) => view.errors[f.name])

  const heading = useRef<HTMLHeadingElement>(null)
  const shownStep = useRef(view.stepIndex)
  useEffect(() => {
    // Moving to another step moves focus to its question, so keyboard and screen-reader users follow.
    if (shownStep.current !== view.stepIndex) heading.current?.focus()
    shownStep.current = view.stepIndex
  }, [view.stepIndex])
  const form = useRef<HTMLFormElement>(null)
  useEffect(() => {
    // After an invalid submit, focus the first field with a message.
    const bad = errors.length ? form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') : null
    ;(bad?.matches('fieldset') ? bad.querySelector('button') : bad)?.focus()
  }, [errors.length])

  return (
    <section
      className="funnel container narrow"
      aria-labelledby="funnel-question"
      data-live={String(view.live)}
    >
      <ResumeNotice message={text.resumeExpired} />
      <FunnelProgress step={view.stepIndex + 1} total={total} text={text} />
      <form
        ref={form}
        className="funnel-form"
        // Until the funnel runs (before hydration, without JavaScript) the step posts to its own URL and
        // the server runs the same machine (docs/decisions/0216); no action keeps the URL's query.
        method="post"
        noValidate
        aria-busy={view.busy}
        data-step={step.name}
        onSubmit={(e) => handled(e, { type: 'SUBMIT' })}
      >
        <h2 id="funnel-question" className="funnel-question" tabIndex={-1} ref={heading}>
          {step.title}
        </h2>
        {step.subtitle && <p className="funnel-subtitle">{step.subtitle}</p>}
        {step.fields.map((field) => {
          const Renderer = FIELD_RENDERERS[field.kind]
          return (
            <Renderer
              key={`${step.name}-${field.name}`}
              field={field}
              id={`field-${field.name}`}
              value={view.values[field.name]}
              error={view.errors[field.name]}
              text={text}
              onChange={(value) => send({ type: 'CHANGE', name: field.name, value })}
              submits={single}
            />
          )
        })}
        <div className="visually-hidden" role="status" aria-live="assertive" aria-atomic="true">
          {errors.length > 0 &&
            fillText(errors.length === 1 ? text.checkAnswer : text.checkAnswers, {
              messages: errors.map((f) => view.errors[f.name]).join('. '),
            })}
        </div>
        {!single && (
          <button type="submit" className="button button-primary funnel-submit" disabled={view.busy}>
            {submitLabel}
          </button>
        )}
        {asksPhone && (
          <TcpaConsent resolution={resolution} step={step} buttonLabel={single ? step.title : submitLabel} />
        )}
        <TpmoDisclaimer brand={resolution.brand} language={p.language} className="tpmo-near-submit" />
        <div className="funnel-secondary">
          {view.stepIndex > 0 && (
            <button
              type="submit"
              name={POSTED_ACTION_FIELD}
              value={POSTED_BACK}
              className="link-button"
              onClick={(e) => handled(e, { type: 'BACK' })}
            >
              {text.back}
            </button>
          )}
          {step.skippable && (
            <button
              type="submit"
              name={POSTED_ACTION_FIELD}
              value={POSTED_SKIP}
              className="link-button funnel-skip"
              onClick={(e) => handled(e, { type: 'SKIP' })}
            >
              {text.skip}
            </button>
          )}
        </div>
      </form>
      {view.live && view.stepIndex > 0 && <ContinueElsewhere text={text} />}
    </section>
  )
}
