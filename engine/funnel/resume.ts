/**
 * Resuming a funnel a visitor left, possibly after its definition changed (docs/decisions/0220).
 * Pure and shared: the browser's funnel, the posted-step path and the resume link use the same rule.
 *
 * 1. `migrateAnswers`: an answer to one of the funnel's fields is kept only when a field of that name
 *    still exists with a value of its kind (yes-no → boolean; choice → an option still offered;
 *    the text kinds → a string; the empty string a skipped step stores fits any kind). Answers to fields the funnel does not ask are left alone (the shared
 *    bucket serves other funnels and the phone lease). A field renamed in the definition is a new
 *    field: its old answer is not carried over.
 * 2. `resumePoint`: the funnel machine itself runs from the first step with the migrated answers and
 *    a no-op world (no events, no navigation, no storage): each step whose fields all hold an answer
 *    that passes today's validation is submitted (a skippable step whose answers are all empty is
 *    skipped), so the steps' on-enter and on-submit actions decide the route as they would for the
 *    visitor. It stops at the first step that needs an answer, and never submits for the visitor:
 *    the last step, a step showing the consent text (a phone field: consent is given to today's text
 *    under today's phone rule, never replayed), a step whose submit would leave the funnel or that
 *    the route visits twice.
 */
import { createActor } from 'xstate'
import type { DemandCheckResult, FormValues } from '../runtime-contracts'
import type { ResolvedFunnel, ResolvedStep } from '../snapshot/types'
import type { FunnelPageInfo } from './funnel-deps'
import { type FunnelEvent, funnelMachineWith } from './funnel-machine'
import { migrateAnswers } from './migrate-answers'

export { migrateAnswers }

import { validateStep } from './validate-field'

/** A step the visitor must submit themselves: it shows the consent text (a phone field). */
export const answersOnlyLive = (step: ResolvedStep) => step.fields.some((f) => f.kind === 'tel')

/**
 * What the stored answers do at a step: submit it, skip it, or stop (it needs an answer). `passLive`:
 * a step showing the consent text counts as answered too (checking where a visitor may stand, not
 * answering for them: see `placeVisitor`).
 */
export function replayMove(
  funnel: ResolvedFunnel,
  step: ResolvedStep,
  values: FormValues,
  passLive = false,
): FunnelEvent | null {
  if ((!passLive && answersOnlyLive(step)) || step.fields.length === 0) return null
  if (!step.fields.every((f) => f.name in values)) return null
  if (step.skippable && step.fields.every((f) => values[f.name] === '')) return { type: 'SKIP' }
  const errors = validateStep(step.fields, values, funnel.text.messages)
  return Object.keys(errors).length === 0 ? { type: 'SUBMIT' } : null
}

export interface ResumePoint {
  /** The first step that needs an answer. */
  stepIndex: number
  /** The migrated answers, with what the replayed actions set. */
  values: FormValues
  /** The steps the replay submitted or skipped, in order (for tests and the decision's examples). */
  answered: number[]
}

/** Where a returning visitor continues (rule 2). Never throws: at worst the first step. */
export function resumePoint(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  stored: FormValues,
  demand: DemandCheckResult | null = null,
): Promise<ResumePoint> {
  return replay(funnel, page, stored, demand, null)
}

/**
 * Where a visitor holding `stored` answers stands when a request names step `at` (a reload, Back, a
 * post; docs/decisions/0230): `at` itself when the route from the first step, with today's funnel
 * and the answers as they fit it, reaches it — every step before it on the route holds valid answers
 * (a phone step the visitor submitted counts: it is not replayed, only passed) — else the first step
 * on that route that needs an answer (rule 2). So after a content change nobody stands past a step
 * the funnel now requires, and nobody finishes without it. `at` null (the URL names no step, or one
 * the funnel no longer has) is a fresh entry: the resume point.
 */
export function placeVisitor(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  stored: FormValues,
  at: number | null,
  demand: DemandCheckResult | null = null,
): Promise<ResumePoint> {
  return replay(funnel, page, stored, demand, at)
}

async function replay(
  funnel: ResolvedFunnel,
  page: FunnelPageInfo,
  stored: FormValues,
  demand: DemandCheckResult | null,
  target: number | null,
): Promise<ResumePoint> {
  const values = migrateAnswers(funnel, stored)
  const start: ResumePoint = { stepIndex: 0, values, answered: [] }
  const memory = new Map<string, FormValues>()
  const actor = createActor(
    funnelMachineWith({
      emitter: { track: () => {}, pageView: () => {} },
      demandCheck: async () => demand,
      storage: { read: (k) => memory.get(k) ?? {}, write: (k, v) => memory.set(k, v) },
      navigation: { replace: () => {}, push: () => {}, back: () => {}, leave: () => {} },
    }),
    { input: { funnel, page, stepParam: funnel.steps[0].name, basePath: '/', search: '', values, demand } },
  )
  try {
    actor.start()
    let shown = await settle(actor, (s) => s.matches('showing') || s.status === 'done')
    const answered: number[] = []
    while (shown.status !== 'done') {
      const index = shown.context.stepIndex
      const step = funnel.steps[index]
      if (index === target) return { stepIndex: index, values: shown.context.values, answered }
      const move =
        index === funnel.steps.length - 1
          ? null
          : replayMove(funnel, step, shown.context.values, target !== null)
      if (!move || answered.includes(index))
        return { stepIndex: index, values: shown.context.values, answered }
      actor.send(move)
      const next = await settle(
        actor,
        (s) =>
          s.status === 'done' ||
          (s.matches('showing') &&
            (s.context.stepIndex !== index || Object.keys(s.context.errors).length > 0)),
      )
      // Leaving the funnel or staying is the visitor's to do: show them the step.
      if (next.status === 'done' || next.context.stepIndex === index)
        return { stepIndex: index, values: shown.context.values, answered }
      answered.push(index)
      shown = next
    }
    return start
  } catch {
    return start
  } finally {
    actor.stop()
  }
}

type FunnelActor = ReturnType<typeof createActor<ReturnType<typeof funnelMachineWith>>>
type FunnelSnap = ReturnType<FunnelActor['getSnapshot']>

/** The actor's first snapshot (now or later) that `done` accepts. xstate's waitFor, without its timers (bundle size). */
function settle(actor: FunnelActor, done: (s: FunnelSnap) => boolean): Promise<FunnelSnap> {
  return new Promise((resolve, reject) => {
    const now = actor.getSnapshot()
    if (done(now)) return resolve(now)
    const sub = actor.subscribe({
      next: (s) => {
        if (!done(s)) return
        sub.unsubscribe()
        resolve(s)
      },
      error: reject,
    })
  })
}
