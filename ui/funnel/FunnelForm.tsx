import './funnel.css'
import { funnelLocation } from '../../engine/funnel/funnel-location'
import {
  POSTED_ACTION_FIELD,
  POSTED_BACK,
  POSTED_RESTART,
  POSTED_SKIP,
} from '../../engine/funnel/posted-fields'
import { fillText } from '../../engine/funnel/validate-field'
import type { Resolution } from '../../engine/render/resolution'
import type { ResolvedFunnel } from '../../engine/snapshot/types'
import { TpmoDisclaimer } from '../components/TpmoDisclaimer'
import { FunnelProgress } from './FunnelProgress'
import { FIELD_RENDERERS } from './field-renderers'
import { TcpaConsent } from './TcpaConsent'

/**
 * The multi-step form, rendered by the server only (docs/decisions/0524): a step is a form that posts
 * to its own URL, and the server's funnel machine answers (303 to the next step, or this step again
 * with errors at its fields). The answers drawn are the ones the server holds (`resolution.funnelPost`);
 * the browser never renders this component: a plain-DOM island (ui/islands/funnel-form-island.ts)
 * enhances the markup it left.
 */
export function FunnelForm({ resolution, funnel }: { resolution: Resolution; funnel: ResolvedFunnel }) {
  const p = resolution.page!
  const held = resolution.funnelPost
  const location = funnelLocation(
    resolution.pathname,
    resolution.params,
    funnel.steps.map((s) => s.name),
  )
  const stepIndex =
    held?.stepIndex ??
    Math.max(
      0,
      funnel.steps.findIndex((s) => s.name === location.stepParam),
    )
  const values = held?.values ?? {}
  const fieldErrors = held?.errors ?? {}
  const step = funnel.steps[stepIndex]
  const total = funnel.steps.length
  // The funnel's words (definitions/ui-text/<language>.json), in the language of its steps.
  const text = funnel.text.funnel
  const submitLabel = step.submitLabel ?? text.continue
  const asksPhone = step.fields.some((f) => f.kind === 'tel')
  const single = step.fields.length === 1 && ['yes-no', 'choice'].includes(step.fields[0].kind)
  const errors = step.fields.filter((f) => fieldErrors[f.name])

  return (
    <section className="funnel container narrow" aria-labelledby="funnel-question" data-live="false">
      <p className="funnel-notice" role="status" data-island="resume-notice" hidden>
        {text.resumeExpired}
      </p>
      <FunnelProgress step={stepIndex + 1} total={total} text={text} />
      <form
        className="funnel-form"
        // The step posts to its own URL and the server runs the funnel machine (docs/decisions/0216,
        // 0524); no action keeps the URL's query.
        method="post"
        noValidate
        data-step={step.name}
      >
        <h2 id="funnel-question" className="funnel-question" tabIndex={-1}>
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
              value={values[field.name]}
              error={fieldErrors[field.name]}
              text={text}
              submits={single}
            />
          )
        })}
        <div className="visually-hidden" role="status" aria-live="assertive" aria-atomic="true">
          {errors.length > 0 &&
            fillText(errors.length === 1 ? text.checkAnswer : text.checkAnswers, {
              messages: errors.map((f) => fieldErrors[f.name]).join('. '),
            })}
        </div>
        {!single && (
          <button type="submit" className="button button-primary funnel-submit">
            {submitLabel}
          </button>
        )}
        {asksPhone && <TcpaConsent resolution={resolution} buttonLabel={single ? step.title : submitLabel} />}
        <TpmoDisclaimer brand={resolution.brand} language={p.language} className="tpmo-near-submit" />
        <div className="funnel-secondary">
          {stepIndex > 0 && (
            <button type="submit" name={POSTED_ACTION_FIELD} value={POSTED_BACK} className="link-button">
              {text.back}
            </button>
          )}
          {step.skippable && (
            <button
              type="submit"
              name={POSTED_ACTION_FIELD}
              value={POSTED_SKIP}
              className="link-button funnel-skip"
            >
              {text.skip}
            </button>
          )}
          {held && stepIndex > 0 && (
            // A visitor shown the answers the server holds may drop them (docs/decisions/0230, 0234):
            // a plain submit, so it works without JavaScript too.
            <button
              type="submit"
              name={POSTED_ACTION_FIELD}
              value={POSTED_RESTART}
              className="link-button funnel-restart"
            >
              {text.startOver}
            </button>
          )}
        </div>
      </form>
      {stepIndex > 0 && (
        // "Continue on another device" (docs/decisions/0222) needs a script: the island shows it.
        <button
          type="button"
          className="link-button funnel-elsewhere"
          data-island="continue-elsewhere"
          data-words={JSON.stringify({ copy: text.copyLink, copied: text.linkCopied, email: text.emailLink })}
          hidden
        >
          {text.continueElsewhere}
        </button>
      )}
    </section>
  )
}
