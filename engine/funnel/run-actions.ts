import type { Action, SingleAction } from '../../schemas/generated/action'
import { evaluateCondition } from '../conditions/evaluate-condition'
import type { DemandCheckExecutor, DemandCheckResult, FormValues, TrackFn } from '../runtime-contracts'

/** Where a list of actions leaves the funnel. */
export type ActionOutcome =
  | { kind: 'continue' }
  | { kind: 'stay' }
  | { kind: 'go-to-step'; step: string }
  | { kind: 'go-to-page'; path: string }
  | { kind: 'finish' }

export interface ActionResult {
  outcome: ActionOutcome
  values: FormValues
  /** Only the answers set by set-field actions (the visitor may have typed meanwhile). */
  set: FormValues
  demand: DemandCheckResult | null
}

export interface ActionDeps {
  track: TrackFn
  demandCheck: DemandCheckExecutor
}

export function actionList(action: Action | undefined): SingleAction[] {
  if (!action) return []
  return Array.isArray(action) ? action : [action]
}

export interface ActionPlan extends ActionResult {
  /** Track actions whose condition held, in order. */
  tracks: { event: string; properties: Record<string, unknown> }[]
}

/**
 * The pure core of an action list (action.schema.json): a `stay`, `go-to-step`, `go-to-page` or
 * `finish` whose condition holds ends the list. `checked` is what a demand check answers (null on
 * failure, which keeps the last known result: spec point 8 ignores demand-check errors).
 */
export function planActions(
  action: Action | undefined,
  start: { values: FormValues; demand: DemandCheckResult | null },
  checked: DemandCheckResult | null,
): ActionPlan {
  let values = { ...start.values }
  let set: FormValues = {}
  let demand = start.demand
  const tracks: ActionPlan['tracks'] = []
  const holds = (a: SingleAction) =>
    !('when' in a) || !a.when || evaluateCondition(a.when, { values, demand })
  const end = (outcome: ActionOutcome): ActionPlan => ({ outcome, values, set, demand, tracks })
  for (const a of actionList(action)) {
    switch (a.type) {
      case 'demand-check':
        if (checked) demand = checked
        break
      case 'track':
        if (holds(a)) tracks.push({ event: a.event, properties: { ...(a.properties ?? {}) } })
        break
      case 'set-field':
        if (holds(a)) {
          values = { ...values, [a.field]: a.value }
          set = { ...set, [a.field]: a.value }
        }
        break
      case 'stay':
        if (holds(a)) return end({ kind: 'stay' })
        break
      case 'go-to-step':
        if (holds(a)) return end({ kind: 'go-to-step', step: a.step })
        break
      case 'go-to-page':
        if (holds(a)) return end({ kind: 'go-to-page', path: a.path })
        break
      case 'finish':
        if (holds(a)) return end({ kind: 'finish' })
        break
    }
  }
  return end({ kind: 'continue' })
}

/** Runs an action list: asks for demand when the list has a demand check, then emits its tracks. */
export async function runActions(
  action: Action | undefined,
  start: { values: FormValues; demand: DemandCheckResult | null },
  deps: ActionDeps,
): Promise<ActionResult> {
  // Yield first: XState starts an invoked actor before the entering state's own entry actions run,
  // and a step's pageView must come before anything its actions emit.
  await Promise.resolve()
  const needsDemand = actionList(action).some((a) => a.type === 'demand-check')
  const checked = needsDemand ? await deps.demandCheck().catch(() => null) : null
  const plan = planActions(action, start, checked)
  for (const t of plan.tracks) deps.track(t.event, t.properties)
  return { outcome: plan.outcome, values: plan.values, set: plan.set, demand: plan.demand }
}
