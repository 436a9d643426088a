/**
 * A funnel step posted as a plain HTML form (before hydration or without JavaScript;
 * docs/decisions/0216): the form fields become the event the browser's form would have sent, and the
 * same funnel machine runs it to where the visitor goes next. Pure: the server supplies the effects.
 */
import { createActor, waitFor } from 'xstate'
import type { FormValues } from '../runtime-contracts'
import type { ResolvedStep } from '../snapshot/types'
import type { FunnelDeps } from './funnel-deps'
import { type FunnelEvent, type FunnelMachineInput, funnelMachineWith } from './funnel-machine'
import { maskPhone } from './phone-mask'
import { POSTED_ACTION_FIELD, POSTED_BACK, POSTED_SKIP } from './posted-fields'
import type { FieldErrors } from './validate-field'

/** A posted body's fields → the machine's event: the step's own fields only, as the browser would hold them. */
export function postedEvent(step: ResolvedStep, form: URLSearchParams): FunnelEvent {
  const action = form.get(POSTED_ACTION_FIELD)
  if (action === POSTED_SKIP) return { type: 'SKIP' }
  if (action === POSTED_BACK) return { type: 'BACK' }
  const values: FormValues = {}
  for (const field of step.fields) {
    const raw = form.get(field.name)
    if (raw === null) continue
    // A posted field is the visitor's answer to it: one that is no answer (not true/false, not an
    // option offered) is posted as empty, so the step is shown again with its error rather than
    // carried on with an answer stored before.
    if (field.kind === 'yes-no') values[field.name] = raw === 'true' || raw === 'false' ? raw === 'true' : ''
    else if (field.kind === 'choice')
      values[field.name] = field.options?.find((o) => o.value === raw)?.value ?? ''
    else if (field.kind === 'tel') values[field.name] = maskPhone(raw)
    else if (field.kind === 'zip') values[field.name] = raw.replace(/\D/g, '').slice(0, 5)
    else values[field.name] = raw
  }
  return { type: 'SUBMIT', values }
}

/** Where a posted step leads: the step again (with its errors), another step, or out of the funnel. */
export type PostedOutcome =
  | { kind: 'show'; stepIndex: number; values: FormValues; errors: FieldErrors }
  | { kind: 'go'; url: string }
  | { kind: 'refused' }

/**
 * Runs the funnel machine from the posted step with the stored answers, sends it the posted event and
 * waits until it settles: shown again (invalid, or an action said stay), moved to another step (whose
 * on-enter actions run when that step is posted or hydrated), or left the funnel. The machine's
 * navigation is what the outcome says; its other effects go to `deps` as in the browser.
 */
export async function runPostedStep(
  input: FunnelMachineInput,
  event: FunnelEvent,
  deps: Omit<FunnelDeps, 'navigation'>,
): Promise<PostedOutcome> {
  let url: string | null = null
  let sent = false
  const actor = createActor(
    funnelMachineWith({
      ...deps,
      // The posted step's view is recorded; the next step's when it is shown (posted or hydrated).
      emitter: {
        track: deps.emitter.track,
        pageView: (page, properties) => {
          if (!sent) deps.emitter.pageView(page, properties)
        },
      },
      navigation: {
        replace: (to) => {
          url = to
        },
        push: (to) => {
          url = to
        },
        back: () => {},
        leave: (to) => {
          url = to
        },
      },
    }),
    { input },
  )
  actor.start()
  // A posted URL without a known step is the first step (the machine replaces the URL): answer it.
  url = null
  const shown = await waitFor(actor, (s) => s.matches('showing') || s.status === 'done')
  const from = shown.context.stepIndex
  sent = true
  actor.send(event)
  const settled = await waitFor(
    actor,
    (s) =>
      s.status === 'done' || s.matches('showing') || (s.matches('entering') && s.context.stepIndex !== from),
  )
  actor.stop()
  if (settled.status === 'done')
    return settled.value === 'refused' || !url ? { kind: 'refused' } : { kind: 'go', url }
  const { stepIndex, values, errors } = settled.context
  if (stepIndex !== from && url) return { kind: 'go', url }
  return { kind: 'show', stepIndex, values, errors }
}
