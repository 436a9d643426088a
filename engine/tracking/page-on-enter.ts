import type { Action, SingleAction, TrackAction } from '../../schemas/generated/action'
import type { TrackFn } from '../runtime-contracts'

export interface OnEnterPlan {
  tracks: { event: string; properties: Record<string, unknown> }[]
  /** Actions a page cannot run (they belong to funnel steps), with why; reported, never run. */
  skipped: { action: SingleAction; reason: string }[]
}

/**
 * A page's on-enter actions (spec point 2) → the track calls to make. On a page (outside a funnel)
 * only `track` without a condition makes sense: there are no form values to test and no step to
 * move. See docs/decisions/0304.
 */
export function planPageOnEnter(action: Action | undefined): OnEnterPlan {
  const plan: OnEnterPlan = { tracks: [], skipped: [] }
  if (!action) return plan
  for (const a of Array.isArray(action) ? action : [action]) {
    if (a.type !== 'track') {
      plan.skipped.push({ action: a, reason: `"${a.type}" only runs in a funnel step` })
      continue
    }
    const t = a as TrackAction
    if (t.when) {
      plan.skipped.push({ action: a, reason: 'a condition ("when") needs form values; pages have none' })
      continue
    }
    plan.tracks.push({ event: t.event, properties: { ...(t.properties ?? {}) } })
  }
  return plan
}

/** Runs the plan with the event-tracking function. */
export function runPageOnEnter(action: Action | undefined, track: TrackFn): OnEnterPlan {
  const plan = planPageOnEnter(action)
  for (const t of plan.tracks) track(t.event, t.properties)
  return plan
}
